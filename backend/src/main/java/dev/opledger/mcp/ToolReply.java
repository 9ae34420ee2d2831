package dev.opledger.mcp;

import java.util.Map;

/**
 * What a tool answered. {@code error} is the tool's own refusal ({@code isError: true}): the call
 * completed and, for an honest tool, had no effect.
 *
 * @param content the structured content (JSON object), empty when the tool gave none
 * @param text the text content, joined
 */
public record ToolReply(boolean error, Map<String, Object> content, String text) {
}
