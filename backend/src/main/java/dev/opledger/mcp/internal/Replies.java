package dev.opledger.mcp.internal;

import dev.opledger.mcp.ToolReply;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A {@code CallToolResult} of either revision as a {@link ToolReply}: {@code isError} as is; the
 * structured content as the content (a non-object value under {@code value}); on success without
 * structured content, text that is one JSON object is parsed into the content; the text items
 * joined by new lines.
 */
final class Replies {

    private static final TypeRef<LinkedHashMap<String, Object>> OBJECT = new TypeRef<>() {
    };

    private Replies() {
    }

    static ToolReply of(io.modelcontextprotocol.modern.McpSchema.CallToolResult result) {
        List<String> texts = result.content() == null ? List.of() : result.content().stream()
                .filter(io.modelcontextprotocol.modern.McpSchema.TextContent.class::isInstance)
                .map(content -> ((io.modelcontextprotocol.modern.McpSchema.TextContent) content).text())
                .toList();
        return reply(Boolean.TRUE.equals(result.isError()), result.structuredContent(), texts);
    }

    /**
     * A {@code CallToolResult} as the transport parsed it (a JSON object): read directly when it
     * has the plain form, text content only, {@code isError} a boolean or absent; any other form
     * through the SDK's {@code CallToolResult}, whose rules (content types, coercions, failures)
     * then decide. Both give the same reply; the SDK's conversion of the plain form was about 2 %
     * of the node's CPU per checkout (issue 13, docs/benchmarks.md).
     */
    static ToolReply ofResult(Map<?, ?> result, McpJsonMapper json) {
        List<String> texts = plainTexts(result.get("content"));
        Object isError = result.get("isError");
        Object meta = result.get("_meta");
        Object resultType = result.get("resultType");
        if (texts == null || !(isError == null || isError instanceof Boolean) || !(meta == null || meta instanceof Map)
                || !(resultType == null || resultType instanceof String)) {
            return of(json.convertValue(result, io.modelcontextprotocol.modern.McpSchema.CallToolResult.class));
        }
        return reply(Boolean.TRUE.equals(isError), result.get("structuredContent"), texts);
    }

    /** The texts of content that is only text items with nothing but their text; null for any other content. */
    private static @Nullable List<String> plainTexts(@Nullable Object content) {
        if (content == null) {
            return List.of();
        }
        if (!(content instanceof List<?> items)) {
            return null;
        }
        List<String> texts = new ArrayList<>(items.size());
        for (Object item : items) {
            if (!(item instanceof Map<?, ?> text) || text.size() != 2 || !"text".equals(text.get("type"))
                    || !(text.get("text") instanceof String value)) {
                return null;
            }
            texts.add(value);
        }
        return texts;
    }

    static ToolReply of(io.modelcontextprotocol.spec.McpSchema.CallToolResult result) {
        List<String> texts = result.content() == null ? List.of() : result.content().stream()
                .filter(io.modelcontextprotocol.spec.McpSchema.TextContent.class::isInstance)
                .map(content -> ((io.modelcontextprotocol.spec.McpSchema.TextContent) content).text())
                .toList();
        return reply(Boolean.TRUE.equals(result.isError()), result.structuredContent(), texts);
    }

    /** The server refused the request itself (a JSON-RPC error): the call completed without running. */
    static ToolReply refused(String message) {
        return new ToolReply(true, Map.of(), message);
    }

    static ToolReply reply(boolean error, @Nullable Object structured, List<String> texts) {
        String text = String.join("\n", texts.stream().filter(t -> t != null).toList());
        Map<String, Object> content;
        if (structured instanceof Map<?, ?> object) {
            content = copy(object);
        } else if (structured != null) {
            content = Map.of("value", structured);
        } else if (!error) {
            content = parsedObject(text);
        } else {
            content = Map.of();
        }
        return new ToolReply(error, content, text);
    }

    private static Map<String, Object> copy(Map<?, ?> object) {
        Map<String, Object> copy = new LinkedHashMap<>();
        object.forEach((key, value) -> copy.put(String.valueOf(key), value));
        return Collections.unmodifiableMap(copy);
    }

    private static Map<String, Object> parsedObject(String text) {
        String trimmed = text.strip();
        if (!trimmed.startsWith("{") || !trimmed.endsWith("}")) {
            return Map.of();
        }
        try {
            return Collections.unmodifiableMap(McpJsonDefaults.getMapper().readValue(trimmed, OBJECT));
        } catch (IOException | RuntimeException e) {
            return Map.of();
        }
    }
}
