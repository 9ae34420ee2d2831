/**
 * The tasks of long-running tools ({@link dev.opledger.tools.toolkit.TaskTool}): each call's task
 * is a row of {@code reference_tools.task}, committed before the call is answered, so a client
 * that persisted the task id can poll it from anywhere; the work ends on this server's scheduler.
 * A repeat with the same idempotency key finds the call's task instead of starting another.
 */
@NullMarked
package dev.opledger.tools.task;

import org.jspecify.annotations.NullMarked;
