package dev.opledger.graph;

import java.util.Map;

/**
 * What one step of a graph ({@link GraphStep}) came to: the state update the steps after it see,
 * or the end of the run with the operation's outcome. A step that stops the run writes no
 * checkpoint, so the thread keeps the one before the step: a later run of the operation runs the
 * step again from its start.
 */
public sealed interface StepResult {

    /** Merge {@code update} into the state, checkpoint it and go on along the graph's edges. */
    record Next(Map<String, Object> update) implements StepResult {
    }

    /** End the run here, before this step's checkpoint, with {@code outcome} for the worker to record. */
    record Stop(ExecutionOutcome outcome) implements StepResult {
    }

    static StepResult next(Map<String, Object> update) {
        return new Next(update);
    }

    static StepResult stop(ExecutionOutcome outcome) {
        return new Stop(outcome);
    }
}
