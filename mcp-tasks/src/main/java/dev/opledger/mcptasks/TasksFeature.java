package dev.opledger.mcptasks;

import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpAsyncResponse;
import io.modelcontextprotocol.modern.server.McpFeature;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import java.util.Map;
import java.util.Set;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The extension's methods as an {@code McpFeature} of the SDK's modern server, which it declares
 * under {@code capabilities.extensions}: {@code tasks/get}, {@code tasks/update} and
 * {@code tasks/cancel} over a {@link TaskHandler}. A request whose client does not declare the
 * extension gets -32021, a task id the caller does not have -32602 "Task not found", as the
 * specification requires; {@code update} and {@code cancel} are acknowledged with an empty result.
 */
public final class TasksFeature implements McpFeature {

    private final TaskHandler tasks;

    public TasksFeature(TaskHandler tasks) {
        this.tasks = tasks;
    }

    @Override
    public Set<String> methods() {
        return Set.of(TasksExtension.GET, TasksExtension.UPDATE, TasksExtension.CANCEL);
    }

    @Override
    public void capabilities(McpSchema.ServerCapabilities.Builder builder) {
        builder.extension(TasksExtension.ID, Map.of());
    }

    @Override
    public Mono<? extends McpAsyncResponse<? extends McpSchema.Result>> handle(McpRequestContext context, Object params) {
        // a task store blocks (JDBC): off the transport's threads
        return Mono.fromCallable(() -> McpAsyncResponse.result(answer(context, params)))
                .subscribeOn(Schedulers.boundedElastic());
    }

    private McpSchema.Result answer(McpRequestContext context, Object params) {
        if (!TasksExtension.declaredBy(context)) {
            throw TasksExtension.missingCapability();
        }
        Map<?, ?> request = params instanceof Map<?, ?> map ? map : Map.of();
        if (!(request.get("taskId") instanceof String taskId)) {
            throw McpException.invalidParams("params.taskId must be the task's id (a string)");
        }
        return switch (context.method()) {
            case TasksExtension.GET -> tasks.get(context, taskId).orElseThrow(TasksExtension::notFound);
            case TasksExtension.UPDATE -> acknowledged(tasks.update(context, taskId, request));
            case TasksExtension.CANCEL -> acknowledged(tasks.cancel(context, taskId));
            default -> throw new McpException(-32601, "method not found: " + context.method());
        };
    }

    private static TaskAcknowledgement acknowledged(boolean found) {
        if (!found) {
            throw TasksExtension.notFound();
        }
        return TaskAcknowledgement.EMPTY;
    }
}
