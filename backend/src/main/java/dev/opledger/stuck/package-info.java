/**
 * Stuck tasks, for support staff: the MCP tasks the node serves (inbound, {@code mcp_task}) whose
 * operation has not ended, and the tool calls its effects have in flight (outbound, an effect
 * record STARTED with no outcome, of a RUNNING operation), each once it is older than the
 * threshold configured for its tool ({@link dev.opledger.stuck.StuckTaskProperties}); and the
 * newest cancels with the state each has reached. Read-only: {@link dev.opledger.stuck.StuckTaskService}
 * only reads, role-checked; a cancel goes through {@link dev.opledger.claim.CancelService}. The
 * queries read the tables of claim, effect and mcpserver, and use none of their code but claim's
 * cancel types, so this module sits after all of them on the path.
 */
@NullMarked
package dev.opledger.stuck;

import org.jspecify.annotations.NullMarked;
