package dev.opledger.mcpserver.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.operation.SubjectId;
import dev.opledger.testing.NodeIntegrationTest;
import io.modelcontextprotocol.modern.McpException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The sealed requestState of a synchronous multi-round-trip call, attacked as a client would:
 * only the state the node sealed, echoed unchanged by the same subject for the same tool and
 * arguments before it expires, opens; anything else is -32602.
 */
@NodeIntegrationTest
class RequestStatesIT {

    private static final SubjectId ANN = new SubjectId("ann");
    private static final Map<String, Object> ARGUMENTS = Map.of("b", List.of(1, 2), "a", Map.of("y", 1, "x", "z"));

    @Autowired
    RequestStates states;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void theSealedStateOpensForTheSameSubjectToolAndArgumentsInAnyOrder() {
        String state = states.seal(ANN, "tool", ARGUMENTS, List.of("user_name"));

        var opened = states.open(state, ANN, "tool",
                new java.util.LinkedHashMap<>(Map.of("a", Map.of("x", "z", "y", 1), "b", List.of(1, 2))));
        var again = states.open(state, ANN, "tool", ARGUMENTS);

        assertThat(opened.keys()).containsExactly("user_name");
        assertThat(again.operationId()).as("a replay names the same operation").isEqualTo(opened.operationId());
        assertThat(states.open(states.seal(ANN, "tool", ARGUMENTS, List.of("user_name")), ANN, "tool", ARGUMENTS)
                .operationId()).as("a new round, a new operation").isNotEqualTo(opened.operationId());
        assertThat(new RequestStates(jdbc).open(state, ANN, "tool", ARGUMENTS).round())
                .as("another node (the key is the cluster's, in the database)").isEqualTo(opened.round());
    }

    @Test
    void aForgedAlteredForeignOrExpiredStateIsRefused() {
        String state = states.seal(ANN, "tool", ARGUMENTS, List.of("user_name"));
        String body = state.substring(0, state.indexOf('.'));
        String payload = new String(Base64.getUrlDecoder().decode(body), StandardCharsets.UTF_8);
        String noKeys = Base64.getUrlEncoder().withoutPadding().encodeToString(
                payload.replace("[\"user_name\"]", "[]").getBytes(StandardCharsets.UTF_8));
        String forged = Base64.getUrlEncoder().withoutPadding().encodeToString(
                payload.replace("\"ann\"", "\"bob\"").getBytes(StandardCharsets.UTF_8));
        var later = new RequestStates(jdbc, Clock.fixed(Instant.now().plus(Duration.ofMinutes(RequestStates.TTL_MINUTES + 1)),
                ZoneOffset.UTC));

        for (String bad : List.of("", "garbage", "a.b", ".", state + "x", noKeys + state.substring(state.indexOf('.')),
                forged + state.substring(state.indexOf('.')), "%%%." + state.substring(state.indexOf('.') + 1))) {
            assertThatThrownBy(() -> states.open(bad, ANN, "tool", ARGUMENTS)).as(bad).isInstanceOf(McpException.class)
                    .satisfies(e -> assertThat(((McpException) e).error().code()).isEqualTo(-32602));
        }
        assertThatThrownBy(() -> states.open(state, new SubjectId("bob"), "tool", ARGUMENTS))
                .as("another subject").isInstanceOf(McpException.class);
        assertThatThrownBy(() -> states.open(state, ANN, "other_tool", ARGUMENTS)).as("another tool")
                .isInstanceOf(McpException.class);
        assertThatThrownBy(() -> states.open(state, ANN, "tool", Map.of("a", 1))).as("other arguments")
                .isInstanceOf(McpException.class);
        assertThatThrownBy(() -> later.open(state, ANN, "tool", ARGUMENTS)).as("expired")
                .isInstanceOf(McpException.class).hasMessageContaining("expired");
    }
}
