package dev.opledger.tools.task;

import dev.opledger.tools.toolkit.TaskTool;
import dev.opledger.tools.toolkit.ToolArguments;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Starts the tasks of task tools and ends each when due ({@link TaskStore#finish}: the effect and
 * the completion in one transaction; a task cancelled meanwhile is left as it is). Tasks still
 * working when the server stopped are ended when due after it starts again.
 */
public class TaskRunner implements SmartInitializingSingleton, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(TaskRunner.class);

    private final TaskStore store;
    private final Map<String, TaskTool> tools;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("reference-tools-tasks").daemon().factory());

    TaskRunner(TaskStore store, ObjectProvider<TaskTool> tools) {
        this.store = store;
        this.tools = tools.orderedStream().collect(Collectors.toUnmodifiableMap(TaskTool::name, Function.identity()));
    }

    /** The task tools, by name. */
    public Map<String, TaskTool> tools() {
        return tools;
    }

    /**
     * A task for the call, committed before this returns, or the task its idempotency key made.
     *
     * @param failAs an injected fault: the task fails when due with this JSON-RPC error message
     */
    public TaskStart start(TaskTool tool, ToolArguments arguments, @Nullable String failAs) {
        Optional<String> key = arguments.optionalText("idempotencyKey");
        TaskStart start = store.create(tool, arguments, key.orElse(null), failAs);
        if (start instanceof TaskStart.Started started && !started.existing()) {
            schedule(started.task().taskId(), tool.name(), Instant.now().plus(tool.duration()));
        }
        return start;
    }

    /** Cancels a working task; false when there is no such task. */
    public boolean cancel(String taskId) {
        return store.cancel(taskId);
    }

    @Override
    public void afterSingletonsInstantiated() {
        store.working().forEach(due -> schedule(due.taskId(), due.tool(), due.dueAt()));
    }

    @Override
    public void destroy() {
        scheduler.shutdownNow();
    }

    private void schedule(String taskId, String toolName, Instant due) {
        TaskTool tool = tools.get(toolName);
        if (tool == null) {
            log.warn("task {} is of tool {}, which this server no longer has: it stays working", taskId, toolName);
            return;
        }
        long delay = Math.max(0, Duration.between(Instant.now(), due).toMillis());
        scheduler.schedule(() -> {
            try {
                store.finish(taskId, tool);
            } catch (RuntimeException e) {
                log.error("task {} of {} could not be ended; it stays working", taskId, toolName, e);
            }
        }, delay, TimeUnit.MILLISECONDS);
    }
}
