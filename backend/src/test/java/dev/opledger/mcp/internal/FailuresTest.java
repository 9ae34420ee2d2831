package dev.opledger.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.client.McpResponseLostException;
import io.modelcontextprotocol.modern.client.McpTimeoutException;
import io.modelcontextprotocol.modern.client.transport.McpHttpStatusException;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** Only a refusal before running is an answer; everything else leaves the outcome unknown. */
class FailuresTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    @Test
    void invalidParamsAndUnknownMethodsAreRefusalsInBothRevisions() {
        assertThat(Failures.refusal(McpException.invalidParams("quantity must be >= 1")))
                .hasValueSatisfying(message -> assertThat(message).contains("-32602").contains("quantity must be >= 1"));
        assertThat(Failures.refusal(new McpError(new JSONRPCError(-32601, "Method not found", null))))
                .hasValueSatisfying(message -> assertThat(message).contains("-32601"));
    }

    @Test
    void anInternalErrorIsNoRefusal() {
        var internal = new McpException(-32603, "boom");

        assertThat(Failures.refusal(internal)).isEmpty();
        assertThat(Failures.reason(internal, TIMEOUT)).isEqualTo("the server answered JSON-RPC error -32603 boom");
    }

    @Test
    void aRefusalWrappedInAnotherFailureIsNoAnswer() {
        var wrapped = new RuntimeException("Client failed to initialize calling tool",
                new McpError(new JSONRPCError(-32602, "Unsupported protocol version", null)));

        assertThat(Failures.refusal(wrapped)).isEmpty();
    }

    @Test
    void namesWhatWentWrong() {
        assertThat(Failures.reason(new McpResponseLostException("tools/call", new IOException("closed")), TIMEOUT))
                .contains("response was lost");
        assertThat(Failures.reason(new McpTimeoutException(McpTimeoutException.Kind.CALL, TIMEOUT, "tools/call"), TIMEOUT))
                .isEqualTo("no answer within 3000 ms");
        assertThat(Failures.reason(new RuntimeException(new TimeoutException("Did not observe any item")), TIMEOUT))
                .isEqualTo("no answer within 3000 ms");
        assertThat(Failures.reason(new RuntimeException(new ConnectException("Connection refused")), TIMEOUT))
                .isEqualTo("cannot connect to the server");
        assertThat(Failures.reason(new McpHttpStatusException(URI.create("http://127.0.0.1/mcp"), 503,
                HttpHeaders.of(Map.of(), (name, value) -> true), "down"), TIMEOUT))
                .isEqualTo("the server answered HTTP 503");
        assertThat(Failures.reason(new RuntimeException(new IOException("chunked transfer encoding")), TIMEOUT))
                .contains("response was lost").contains("chunked transfer encoding");
    }

    @Test
    void theProbeFallsBackOnErrorsOfOlderServersOnly() {
        var headers = HttpHeaders.of(Map.of(), (name, value) -> true);
        var uri = URI.create("http://127.0.0.1/mcp");

        assertThat(Connector.speaksOlderRevision(new McpException(-32601, "Method not found"), false)).isTrue();
        assertThat(Connector.speaksOlderRevision(new McpException(-32602, "initialize first"), true)).isTrue();
        assertThat(Connector.speaksOlderRevision(new McpException(-32022, "Unsupported protocol version"), false))
                .isFalse();
        assertThat(Connector.speaksOlderRevision(new McpHttpStatusException(uri, 400, headers, ""), false)).isTrue();
        assertThat(Connector.speaksOlderRevision(new McpHttpStatusException(uri, 405, headers, ""), false)).isTrue();
        assertThat(Connector.speaksOlderRevision(new McpHttpStatusException(uri, 401, headers, ""), false)).isFalse();
        assertThat(Connector.speaksOlderRevision(new McpHttpStatusException(uri, 503, headers, ""), false)).isFalse();
        assertThat(Connector.speaksOlderRevision(new RuntimeException(new ConnectException("refused")), false))
                .isFalse();
        var silence = new McpTimeoutException(McpTimeoutException.Kind.CALL, TIMEOUT, "server/discover");
        assertThat(Connector.speaksOlderRevision(silence, true)).isTrue();
        assertThat(Connector.speaksOlderRevision(silence, false)).isFalse();
        var exited = new McpResponseLostException("server/discover", new IOException("The server closed its output"));
        assertThat(Connector.speaksOlderRevision(exited, true)).isTrue();
        assertThat(Connector.speaksOlderRevision(exited, false)).isFalse();
    }
}
