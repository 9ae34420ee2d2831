/**
 * The MCP tasks extension ({@code io.modelcontextprotocol/tasks}, ext-tasks specification, for the
 * 2026-07-28 revision) on the SDK's modern API, which has no task support of its own: the wire
 * records ({@link dev.opledger.mcptasks.CreateTaskResult}, {@link dev.opledger.mcptasks.GetTaskResult},
 * {@link dev.opledger.mcptasks.TaskAcknowledgement}), the per-request capability
 * ({@link dev.opledger.mcptasks.TasksExtension}) and the server's methods as an {@code McpFeature}
 * ({@link dev.opledger.mcptasks.TasksFeature}) over the server's own store of tasks
 * ({@link dev.opledger.mcptasks.TaskHandler}). Used by the node's MCP server, by its MCP client
 * (to read a downstream server's tasks) and by reference-tools.
 */
@NullMarked
package dev.opledger.mcptasks;

import org.jspecify.annotations.NullMarked;
