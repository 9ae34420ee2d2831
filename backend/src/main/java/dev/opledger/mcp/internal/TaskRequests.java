package dev.opledger.mcp.internal;

import dev.opledger.mcp.DownstreamTask;
import dev.opledger.mcp.TaskCancellation;
import dev.opledger.mcp.TaskState;
import dev.opledger.mcp.ToolAnswer;
import dev.opledger.mcptasks.TaskStatus;
import dev.opledger.mcptasks.TasksExtension;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.JsonRpc;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.client.transport.McpClientTransport;
import io.modelcontextprotocol.modern.client.transport.McpTransportRequest;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The tasks extension over a 2026-07-28 transport. The SDK's client does not know the extension
 * (it refuses a {@code resultType: "task"}), so these requests go through its transport with the
 * per-request {@code _meta} the revision requires (version, client info, and capabilities that
 * declare the extension) and their results are read here; {@code Mcp-Name} is the tool for
 * {@code tools/call}, the task id for the task methods, as the specification says. A JSON-RPC
 * error is thrown as the SDK's {@link McpException}, so {@link Failures} reads it as it reads the
 * SDK's own.
 */
final class TaskRequests {

    private static final String PROTOCOL_VERSION = McpSchema.LATEST_PROTOCOL_VERSION;
    private static final int INVALID_PARAMS = -32602;
    /** Beyond the transport's own round timeout: the time to notice a transport that never completes. */
    private static final Duration GRACE = Duration.ofSeconds(1);

    private final McpClientTransport transport;
    private final McpJsonMapper json;
    private final AtomicLong ids = new AtomicLong();

    TaskRequests(McpClientTransport transport, McpJsonMapper json) {
        this.transport = transport;
        this.json = json;
    }

    ToolAnswer call(String tool, Map<String, Object> arguments, Map<String, Object> meta, Duration timeout) {
        Object result = exchange("tools/call", tool, Map.of("name", tool, "arguments", arguments), meta, timeout);
        Map<?, ?> object = object(result);
        String resultType = object.get("resultType") instanceof String type ? type : "complete";
        return switch (resultType) {
            // the seed state only: the outcome is always read with tasks/get, the one reply that carries it
            case "task" -> new ToolAnswer.TaskStarted(new DownstreamTask(text(object, "taskId"),
                    new TaskState.Working(text(object, "status"),
                            object.get("statusMessage") instanceof String message ? message : null, interval(object)),
                    interval(object)));
            case "complete" -> new ToolAnswer.Replied(Replies.ofResult(object, json));
            // multi-round-trip input: the gateway has none to give, and cannot tell whether the tool started
            default -> throw new IllegalStateException("the server answered tools/call with resultType '" + resultType
                    + "', which this client does not handle");
        };
    }

    TaskState get(String taskId, Duration timeout) {
        try {
            return state(object(exchange(TasksExtension.GET, taskId, Map.of("taskId", taskId), Map.of(), timeout)));
        } catch (McpException e) {
            if (e.error().code() == INVALID_PARAMS) {
                return new TaskState.NotFound(e.getMessage());
            }
            throw e;
        }
    }

    TaskCancellation cancel(String taskId, Duration timeout) {
        try {
            exchange(TasksExtension.CANCEL, taskId, Map.of("taskId", taskId), Map.of(), timeout);
            return TaskCancellation.ACKNOWLEDGED;
        } catch (McpException e) {
            if (e.error().code() == INVALID_PARAMS) {
                return TaskCancellation.NOT_FOUND;
            }
            throw e;
        }
    }

    private TaskState state(Map<?, ?> task) {
        String message = task.get("statusMessage") instanceof String text ? text : null;
        return switch (TaskStatus.of(text(task, "status"))) {
            case WORKING, INPUT_REQUIRED -> new TaskState.Working(text(task, "status"), message, interval(task));
            case COMPLETED -> new TaskState.Completed(
                    Replies.ofResult(object(task.get("result")), json));
            case FAILED -> {
                Map<?, ?> error = task.get("error") instanceof Map<?, ?> map ? map : Map.of();
                yield new TaskState.Failed(error.get("code") instanceof Number code ? code.intValue() : -32603,
                        error.get("message") instanceof String text ? text : message == null ? "failed" : message);
            }
            case CANCELLED -> new TaskState.Cancelled(message);
        };
    }

    private Object exchange(String method, String name, Map<String, Object> params, Map<String, Object> meta,
            Duration timeout) {
        Map<String, Object> requestMeta = new LinkedHashMap<>(meta);
        requestMeta.put("io.modelcontextprotocol/protocolVersion", PROTOCOL_VERSION);
        requestMeta.put("io.modelcontextprotocol/clientInfo",
                Map.of("name", ClientIdentity.NAME, "version", ClientIdentity.VERSION));
        requestMeta.put("io.modelcontextprotocol/clientCapabilities", TasksExtension.declaringCapabilities());
        Map<String, Object> withMeta = new LinkedHashMap<>(params);
        withMeta.put("_meta", requestMeta);
        var message = new JsonRpc.JSONRPCRequest("2.0", method, ids.incrementAndGet(), withMeta);
        var request = McpTransportRequest.builder(message, PROTOCOL_VERSION).name(name).roundTimeout(timeout).build();
        JsonRpc.JSONRPCResponse response = transport.exchange(request)
                .filter(JsonRpc.JSONRPCResponse.class::isInstance)
                .cast(JsonRpc.JSONRPCResponse.class)
                .blockLast(timeout.plus(GRACE));
        if (response == null) {
            throw new IllegalStateException("the server's answer to " + method + " held no JSON-RPC response");
        }
        if (response.error() != null) {
            throw new McpException(response.error());
        }
        return response.result();
    }

    private static Map<?, ?> object(@Nullable Object value) {
        if (value instanceof Map<?, ?> map) {
            return map;
        }
        throw new IllegalStateException("the server answered " + value + " where a JSON object belongs");
    }

    private static String text(Map<?, ?> object, String name) {
        if (object.get(name) instanceof String text) {
            return text;
        }
        throw new IllegalStateException("the server's task has no " + name + " (a string): " + object);
    }

    private static @Nullable Duration interval(Map<?, ?> task) {
        return task.get("pollIntervalMs") instanceof Number millis && millis.longValue() >= 0
                ? Duration.ofMillis(millis.longValue()) : null;
    }
}
