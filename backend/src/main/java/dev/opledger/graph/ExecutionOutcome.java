package dev.opledger.graph;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/** How an executor's run of an operation ended; the worker turns it into the operation's next status. */
public sealed interface ExecutionOutcome {

    /**
     * @param summary what the run did, in a sentence for the client (the ledger keeps it as the
     *        status reason; an MCP task's result shows it); null: nothing to say
     */
    record Succeeded(@Nullable String summary) implements ExecutionOutcome {

        public Succeeded() {
            this(null);
        }
    }

    /** The run failed on its own terms (a tool refused, a rejection was undone): that is the operation's outcome. */
    record Failed(String reason) implements ExecutionOutcome {
    }

    /**
     * The run broke down: an exception escaped it. The worker records FAILED as
     * {@code FailureKind.BROKE_DOWN}, told apart from a {@link Failed} run's outcome.
     *
     * @param reason what the ledger keeps: where it broke and the exception's class, no message
     */
    record BrokeDown(String reason) implements ExecutionOutcome {
    }

    /** Stopped where going on could duplicate an effect; a person decides. */
    record NeedsReview(String reason) implements ExecutionOutcome {
    }

    /** Interrupted before an effect that needs approval; the run resumes after the decision. */
    record AwaitingApproval(String reason) implements ExecutionOutcome {
    }

    /**
     * The run needs input from the client that submitted the operation (an MCP task's
     * {@code input_required}): the operation stops AWAITING_INPUT with these requests open. Like an
     * approval, the step that asks runs again once the client answered (on any node): it reads the
     * answers ({@code LifecycleService.inputs}) and goes on, or asks again under new keys.
     *
     * @param requests by key (unique over the operation's life; a key already answered must not be
     *        asked again): the request as JSON, {@code {"method": "elicitation/create", "params": …}}
     */
    record AwaitingInput(String reason, Map<String, String> requests) implements ExecutionOutcome {

        public AwaitingInput {
            if (requests.isEmpty()) {
                throw new IllegalArgumentException("a run that awaits input asks for at least one");
            }
            requests = Map.copyOf(requests);
        }
    }

    /** A cancel was requested and the run stopped at a step boundary, before its next effect. */
    record Cancelled(String reason) implements ExecutionOutcome {
    }

    /**
     * The lease was lost to another node: nothing to record, that node goes on.
     *
     * @param refused what stopped the run: the write the database refused, or the heartbeat's finding
     */
    record LeaseLost(String refused) implements ExecutionOutcome {
    }
}
