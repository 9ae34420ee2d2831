package dev.opledger.tools.toolkit;

import java.time.Duration;

/**
 * A long-running tool: a call starts its work as a task of the MCP tasks extension and answers at
 * once with the task; the work ends after {@link #duration()} with {@link #finish}, unless the
 * task is cancelled before. Served in the 2026-07-28 revision only.
 */
public interface TaskTool {

    ToolDescriptor descriptor();

    /** How long the work of one call takes; until then it can be cancelled, and nothing has happened. */
    Duration duration();

    /**
     * Checks the arguments when the call arrives, before a task is made.
     *
     * @throws InvalidArgumentException when they do not fit the input schema
     */
    void check(ToolArguments arguments);

    /**
     * The end of the work: makes the effect inside the caller's transaction, which also completes
     * the task, so the effect and the task's completion land together or not at all.
     */
    ToolOutcome finish(ToolArguments arguments);

    default String name() {
        return descriptor().name();
    }
}
