package dev.opledger.graph;

import dev.opledger.claim.LeasedOperation;
import java.util.Set;

/**
 * A kind of operation the API accepts ({@code "type"} of a command) and the workers run. Each is a
 * Spring bean; the API refuses a command whose type no bean names, or whose arguments do not match
 * the type's JSON Schema, before anything is claimed.
 */
public interface OperationType {

    /** The command's {@code "type"}. */
    String name();

    /** Classpath location of the JSON Schema (2020-12) the command's {@code "arguments"} must match. */
    String argumentsSchema();

    /**
     * Runs (or resumes) one leased operation of this type to the point where it ends or waits;
     * the worker turns the outcome into the operation's next status.
     */
    ExecutionOutcome execute(LeasedOperation operation, LeaseGuard lease);

    /**
     * The steps (effect step keys) that undo earlier effects of the type (a release of a
     * reservation, a refund). A replay from a checkpoint before one that landed is refused: the
     * fork would continue on what the compensation undid, and serve the undone effect from its
     * record without making it again.
     */
    default Set<String> compensationSteps() {
        return Set.of();
    }
}
