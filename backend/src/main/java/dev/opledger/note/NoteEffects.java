package dev.opledger.note;

import dev.opledger.effect.Effect;
import dev.opledger.effect.EffectCheck;
import dev.opledger.effect.EffectGateway;
import dev.opledger.effect.EffectOutcome;
import dev.opledger.graph.ExecutionOutcome;
import dev.opledger.graph.LeaseGuard;
import dev.opledger.graph.StepResult;
import dev.opledger.mcp.ToolClient;
import dev.opledger.mcp.ToolRef;
import dev.opledger.mcp.ToolReply;
import dev.opledger.mcp.ToolTransportException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * How a note's step makes its effect: only while the lease is held, always through the effect
 * gateway under the step's key and the lease's fence, with the gateway's outcome turned into the
 * step's state update or the operation's end (refused → FAILED, needs review → NEEDS_REVIEW, a
 * record refused for a lost lease → the run stops); and the server's read tools for the checks.
 */
final class NoteEffects {

    static final String READ_TEXT_FILE = "read_text_file";
    static final String LIST_DIRECTORY = "list_directory";

    private final EffectGateway gateway;
    private final Supplier<ToolClient> tools;
    private final String server;
    private final String root;

    NoteEffects(EffectGateway gateway, Supplier<ToolClient> tools, String server, String root) {
        this.gateway = gateway;
        this.tools = tools;
        this.server = server;
        this.root = root;
    }

    NotePaths paths(LeaseGuard run, NoteState state) {
        return NotePaths.of(root, state, run.fence().operationId());
    }

    /** {@code update} of the step, once the tool's effect happened (now or before); or the run's end. */
    StepResult perform(LeaseGuard run, NoteStep step, String tool, Map<String, Object> arguments,
            @Nullable EffectCheck check, Map<String, Object> update) {
        if (!run.held()) {
            return StepResult.stop(new ExecutionOutcome.LeaseLost("the heartbeat found lease " + run.fence()
                    + " lost before step " + step.key()));
        }
        var effect = new Effect(run.fence(), step.key(), new ToolRef(server, tool), arguments, check);
        return switch (gateway.perform(effect)) {
            case EffectOutcome.Done done -> StepResult.next(update);
            case EffectOutcome.Refused refused ->
                    StepResult.stop(new ExecutionOutcome.Failed(step.key() + ": " + tool + " refused: " + refused.error()));
            case EffectOutcome.GivenUp givenUp ->
                    StepResult.stop(new ExecutionOutcome.Failed(step.key() + ": " + tool + " " + givenUp.reason()));
            case EffectOutcome.NeedsReview review ->
                    StepResult.stop(new ExecutionOutcome.NeedsReview(step.key() + ": " + review.reason()));
            case EffectOutcome.LeaseLost lost -> StepResult.stop(new ExecutionOutcome.LeaseLost(lost.refused()));
            case EffectOutcome.CancelRequested cancel -> StepResult.stop(new ExecutionOutcome.Cancelled(cancel.detail()));
        };
    }

    /** A file's text through read_text_file; a refusal (no such file, outside the root) cannot tell anything. */
    String readText(String path) throws ToolTransportException {
        ToolReply reply = read(READ_TEXT_FILE, path);
        return reply.content().get("content") instanceof String content ? content : reply.text();
    }

    /** A directory's entries through list_directory, each {@code "[FILE] name"} or {@code "[DIR] name"}. */
    List<String> list(String directory) throws ToolTransportException {
        ToolReply reply = read(LIST_DIRECTORY, directory);
        String listing = reply.content().get("content") instanceof String content ? content : reply.text();
        return listing.isEmpty() ? List.of() : Arrays.asList(listing.split("\n"));
    }

    private ToolReply read(String tool, String path) throws ToolTransportException {
        ToolReply reply = tools.get().call(new ToolRef(server, tool), Map.of("path", path));
        if (reply.error()) {
            throw new ToolTransportException(tool + " " + path + " refused the check: " + reply.text());
        }
        return reply;
    }
}
