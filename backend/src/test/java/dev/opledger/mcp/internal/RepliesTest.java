package dev.opledger.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.mcp.ToolReply;
import io.modelcontextprotocol.modern.McpSchema.CallToolResult;
import io.modelcontextprotocol.modern.McpSchema.TextContent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Results of both revisions become replies alike. */
class RepliesTest {

    @Test
    void aModernResultKeepsItsStructuredContentAndText() {
        var result = CallToolResult.builder().addContent(TextContent.builder("reserved 2").build())
                .structuredContent(Map.of("reservationId", "r-1", "quantity", 2)).build();

        assertThat(Replies.of(result)).isEqualTo(
                new ToolReply(false, Map.of("reservationId", "r-1", "quantity", 2), "reserved 2"));
    }

    @Test
    void aClassicToolErrorIsAnErrorReplyWithItsStructuredContentOrNone() {
        var withContent = io.modelcontextprotocol.spec.McpSchema.CallToolResult.builder().addTextContent("no such sku")
                .structuredContent(Map.of("error", "UNKNOWN_SKU")).isError(true).build();
        var withoutContent = io.modelcontextprotocol.spec.McpSchema.CallToolResult.builder()
                .addTextContent("{\"not\":\"parsed\"}").isError(true).build();

        assertThat(Replies.of(withContent)).isEqualTo(new ToolReply(true, Map.of("error", "UNKNOWN_SKU"), "no such sku"));
        assertThat(Replies.of(withoutContent)).isEqualTo(new ToolReply(true, Map.of(), "{\"not\":\"parsed\"}"));
    }

    @Test
    void textThatIsAJsonObjectBecomesTheContentWhenThereIsNoStructuredContent() {
        var reply = Replies.reply(false, null, List.of(" {\"id\": \"m-1\", \"n\": [1, 2]} "));

        assertThat(reply.content()).containsEntry("id", "m-1").containsEntry("n", List.of(1, 2));
    }

    @Test
    void otherTextLeavesTheContentEmptyAndTextsAreJoinedByLines() {
        assertThat(Replies.reply(false, null, List.of("done", "{ not json"))).isEqualTo(
                new ToolReply(false, Map.of(), "done\n{ not json"));
        assertThat(Replies.reply(false, null, List.of("[1, 2]")).content()).isEmpty();
    }

    @Test
    void structuredContentThatIsNoObjectIsKeptUnderValue() {
        assertThat(Replies.reply(false, List.of(1, 2), List.of()).content()).isEqualTo(Map.of("value", List.of(1, 2)));
    }

    @Test
    void aRefusalIsAnErrorReplyWithoutContent() {
        assertThat(Replies.refused("invalid params")).isEqualTo(new ToolReply(true, Map.of(), "invalid params"));
    }
}
