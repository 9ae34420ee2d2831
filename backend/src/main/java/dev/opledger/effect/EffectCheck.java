package dev.opledger.effect;

import dev.opledger.mcp.ToolTransportException;
import java.util.Map;
import java.util.Optional;

/** Reads whether a check-then-write effect already landed; its result if it did. */
@FunctionalInterface
public interface EffectCheck {

    Optional<Map<String, Object>> landed() throws ToolTransportException;
}
