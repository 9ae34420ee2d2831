package dev.opledger.effect;

import dev.opledger.mcp.ToolClient;
import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolRef;
import dev.opledger.mcp.ToolReply;
import dev.opledger.mcp.ToolTransportException;
import java.util.Map;
import java.util.Optional;

/**
 * Tools whose every call goes unanswered (the reply is lost: the outcome is unknown), with no
 * hints: a tool with no class configured is never-repeat, so its effect record stays STARTED and
 * the gateway answers {@link EffectOutcome.NeedsReview}, as for a call that hangs.
 */
public final class UnansweredTools implements ToolClient {

    @Override
    public ToolReply call(ToolRef tool, Map<String, Object> arguments) throws ToolTransportException {
        throw new ToolTransportException("read timed out");
    }

    @Override
    public Optional<ToolHints> hints(ToolRef tool) {
        return Optional.empty();
    }
}
