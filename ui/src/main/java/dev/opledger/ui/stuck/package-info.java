/**
 * Stuck tasks: agents' MCP tasks and tool calls in flight past their tool's threshold, and
 * cancelling them (support staff, audited), with each cancel's state as it moves on.
 */
@NullMarked
package dev.opledger.ui.stuck;

import org.jspecify.annotations.NullMarked;
