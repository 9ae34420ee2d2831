package dev.opledger.mcp;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A tool as its server lists it in {@code tools/list}.
 *
 * @param inputSchema the JSON Schema of its arguments, as listed
 * @param hints its annotations that speak about repeating it
 */
public record ListedTool(String name, @Nullable String title, @Nullable String description,
        Map<String, Object> inputSchema, ToolHints hints) {

    public ListedTool {
        inputSchema = inputSchema == null ? Map.of() : inputSchema;
    }
}
