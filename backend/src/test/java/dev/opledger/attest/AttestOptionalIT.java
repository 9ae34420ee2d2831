package dev.opledger.attest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.testing.ApiClient;
import dev.opledger.testing.Checkout;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.TestTokens;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;

/** With {@code mode: optional} an attempt without assertion is accepted and its operation marked unattested. */
@NodeIntegrationTest
@TestPropertySource(properties = "opledger.attest.mode=optional")
class AttestOptionalIT {

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void acceptsAnUnattestedAttemptAndMarksItsOperation() {
        String subject = "optional-" + UUID.randomUUID();
        UUID operationId = UUID.randomUUID();

        var response = ApiClient.onPort(port).submit(TestTokens.forSubject(subject), operationId.toString(),
                Checkout.command());

        assertThat(response.statusCode()).isEqualTo(202);
        assertThat(jdbc.queryForObject("SELECT attested FROM operation WHERE subject_id = ? AND operation_id = ?",
                Boolean.class, subject, operationId)).isFalse();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM operation_attempt a JOIN operation o ON o.id = a.operation_ref "
                + "WHERE o.subject_id = ? AND a.attest_key_id IS NULL AND a.assertion_counter IS NULL", Long.class, subject))
                .isEqualTo(1);
    }

    @Test
    void stillRefusesAnAttemptWhoseAssertionHeadersAreIncomplete() {
        var api = ApiClient.onPort(port);
        var response = api.send(api.request("/v1/operations", TestTokens.forSubject("optional-" + UUID.randomUUID()),
                        java.util.Map.of("Idempotency-Key", UUID.randomUUID().toString(), "Content-Type", "application/json",
                                "App-Attest-Key-Id", "AAAA"))
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(Checkout.command())).build());

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(ApiClient.json(response).get("type").asString()).endsWith("/assertion-invalid");
    }
}
