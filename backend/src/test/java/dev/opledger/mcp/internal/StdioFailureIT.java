package dev.opledger.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.mcp.ToolRef;
import dev.opledger.mcp.ToolTransportException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Processes that are no MCP server: one exits at once, one never answers. Either way, in every
 * revision and for auto (whose probe takes both for an older server and then fails to
 * initialize), a call is a ToolTransportException, and the next call starts a new process.
 */
class StdioFailureIT {

    private static McpToolClient client(List<String> commandLine, McpProtocol protocol) {
        return new McpToolClient(new McpProperties(Map.of("proc", McpProperties.Server.stdio(commandLine.getFirst(),
                commandLine.subList(1, commandLine.size()), protocol, Duration.ofSeconds(1)))));
    }

    @ParameterizedTest
    @EnumSource(McpProtocol.class)
    void aProcessThatExitsIsATransportFailureEveryTime(McpProtocol protocol) {
        try (var client = client(List.of("sh", "-c", "exit 3"), protocol)) {
            for (int call = 1; call <= 2; call++) {
                assertThatThrownBy(() -> client.call(new ToolRef("proc", "anything"), Map.of()))
                        .isInstanceOf(ToolTransportException.class)
                        .hasMessageContaining("proc");
            }
            assertThat(client.hints(new ToolRef("proc", "anything"))).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(McpProtocol.class)
    void aProcessThatNeverAnswersIsATransportFailureAfterTheTimeout(McpProtocol protocol) {
        try (var client = client(List.of("sleep", "30"), protocol)) {
            assertThatThrownBy(() -> client.call(new ToolRef("proc", "anything"), Map.of()))
                    .isInstanceOf(ToolTransportException.class)
                    .hasMessageContaining("no answer within 1000 ms");
        }
    }
}
