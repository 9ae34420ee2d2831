package dev.opledger.effect;

import dev.opledger.mcp.ToolClient;
import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolRef;
import dev.opledger.mcp.ToolReply;
import dev.opledger.mcp.ToolTransportException;
import dev.opledger.mcp.ToolUnreachableException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Tools with the reference tools' repeat behaviour, in memory, for the gateway's own logic: a
 * keyed tool deduplicates on its key, a plain one acts on every call, and any call can be made to
 * commit and then lose its response, or fail before it reaches the tool. (The real MCP path is
 * tested against reference-tools.) Public for the gateway's callers' tests, through {@link TestGateways}.
 */
public final class FakeTools implements ToolClient {

    public final List<Map<String, Object>> effects = new ArrayList<>();
    public final Map<String, ToolHints> hints = new HashMap<>();
    private final Map<String, Map<String, Object>> byKey = new ConcurrentHashMap<>();
    public int loseNextResponses;
    public int unreachableNextCalls;
    /** Connections refused (nothing sent) on this many calls and tool listings, the next ones. */
    public int refusedNextConnections;
    public int listings;
    boolean refuse;

    @Override
    public synchronized ToolReply call(ToolRef tool, Map<String, Object> arguments) throws ToolTransportException {
        if (refusedNextConnections > 0) {
            refusedNextConnections--;
            throw new ToolUnreachableException("connection refused", new java.net.ConnectException("refused"));
        }
        if (unreachableNextCalls > 0) {
            unreachableNextCalls--;
            throw new ToolTransportException("connection refused");
        }
        if (refuse) {
            return new ToolReply(true, Map.of(), "insufficient stock");
        }
        Object key = arguments.get("idempotencyKey");
        Map<String, Object> result = key == null ? null : byKey.get(key.toString());
        if (result == null) {
            result = Map.of("effect", effects.size() + 1, "tool", tool.tool());
            effects.add(Map.copyOf(arguments));
            if (key != null) {
                byKey.put(key.toString(), result);
            }
        }
        if (loseNextResponses > 0) {
            loseNextResponses--;
            throw new ToolTransportException("the response was lost");
        }
        return new ToolReply(false, result, "ok");
    }

    @Override
    public synchronized List<dev.opledger.mcp.ListedTool> list(String server) throws ToolTransportException {
        listings++;
        if (refusedNextConnections > 0) {
            refusedNextConnections--;
            throw new ToolUnreachableException("connection refused", new java.net.ConnectException("refused"));
        }
        return List.of();
    }

    @Override
    public Optional<ToolHints> hints(ToolRef tool) {
        return Optional.ofNullable(hints.get(tool.tool()));
    }

    public synchronized long effectsOf(String stepKey) {
        return effects.stream().filter(effect -> stepKey.equals(effect.get("stepKey"))).count();
    }
}
