package dev.opledger.tools.message;

import static dev.opledger.tools.McpClients.call;
import static dev.opledger.tools.McpClients.step;
import static dev.opledger.tools.McpClients.structured;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.tools.McpClients;
import dev.opledger.tools.ReferenceToolsServer;
import dev.opledger.tools.TestServer;
import org.junit.jupiter.api.Test;

/** send_message has no key: the never-repeat tool. */
class SendMessageIT {

    private final ReferenceToolsServer server = TestServer.get();
    private final String operation = TestServer.newOperationId();

    @Test
    void everyCallSendsAnotherMessage() {
        var client = McpClients.modern(server.url());
        var arguments = step(operation, "receipt", "to", "ada@example.org", "text", "Your receipt");

        var first = structured(call(client, "send_message", arguments));
        var second = structured(call(client, "send_message", arguments));

        assertThat(second.get("messageId")).isNotEqualTo(first.get("messageId"));
        assertThat(first).containsEntry("to", "ada@example.org");
        assertThat(server.effects().count("send_message", operation, "receipt")).isEqualTo(2);
    }
}
