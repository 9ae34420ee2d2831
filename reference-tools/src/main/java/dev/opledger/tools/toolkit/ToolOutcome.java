package dev.opledger.tools.toolkit;

import java.util.Map;

/** What a call answers: a result, or a refusal that changed nothing. */
public sealed interface ToolOutcome {

    /** The text summary shown next to the structured content. */
    String summary();

    /**
     * A result.
     *
     * @param structured the structured content (a JSON object)
     */
    record Success(Map<String, Object> structured, String summary) implements ToolOutcome {

        public Success {
            structured = Map.copyOf(structured);
        }
    }

    /**
     * An MCP tool error ({@code isError: true}); its structured content is {@code {error, message}}.
     *
     * @param error a stable code, e.g. {@code IDEMPOTENCY_KEY_REUSED}
     */
    record Failure(String error, String message) implements ToolOutcome {

        @Override
        public String summary() {
            return message;
        }

        public Map<String, Object> structured() {
            return Map.of("error", error, "message", message);
        }
    }
}
