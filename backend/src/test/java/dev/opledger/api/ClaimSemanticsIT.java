package dev.opledger.api;

import static dev.opledger.testing.ApiClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.operation.Command;
import dev.opledger.testing.ApiClient;
import dev.opledger.testing.Checkout;
import dev.opledger.testing.LedgerRows;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.TestTokens;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/** The outcomes of a claim, asserted on the HTTP response and on the committed rows. */
@NodeIntegrationTest
class ClaimSemanticsIT {

    private static final String RESERVE = Checkout.command(2, "12.5");

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    ApiClient api;
    LedgerRows rows;
    String subject;
    String token;
    UUID operationId;

    @BeforeEach
    void setUp() {
        api = ApiClient.onPort(port);
        rows = new LedgerRows(jdbc);
        subject = "user-" + UUID.randomUUID();
        token = TestTokens.forSubject(subject);
        operationId = UUID.randomUUID();
    }

    @Test
    void acceptsANewOperationAndCommitsItBeforeAnswering() {
        var response = api.submit(token, operationId.toString(), RESERVE);

        assertThat(response.statusCode()).isEqualTo(202);
        assertThat(response.headers().firstValue("Location")).hasValue("/v1/operations/" + operationId);
        assertThat(response.headers().firstValue("Idempotent-Replayed")).isEmpty();
        var body = json(response);
        String expectedHash = Command.parse(RESERVE.getBytes(StandardCharsets.UTF_8)).payloadHash().hex();
        assertThat(body.get("operationId").asString()).isEqualTo(operationId.toString());
        assertThat(body.get("status").asString()).isEqualTo("ACCEPTED");
        assertThat(body.get("payloadHash").asString()).isEqualTo(expectedHash);
        assertThat(body.get("createdAt").asString()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");

        var stored = rows.operations(subject, operationId);
        assertThat(stored).hasSize(1);
        assertThat(stored.getFirst()).containsEntry("status", "ACCEPTED")
                .containsEntry("payload_hash", expectedHash)
                .containsEntry("command_type", "checkout");
        assertThat(rows.attemptOutcomes(subject, operationId)).containsExactly("CLAIMED");
    }

    @Test
    void replaysTheSameCommandWithoutASecondOperation() {
        var first = api.submit(token, operationId.toString(), RESERVE);
        // the same command, formatted differently: member order, whitespace, number spelling
        var again = api.submit(token, operationId.toString(),
                "{ \"arguments\": {\"recipient\": \"ann@example.com\", \"currency\": \"EUR\", \"amount\": 1.25e1, "
                        + "\"quantity\": 2.0, \"sku\": \"SKU-ESPRESSO\"},\n \"type\": \"checkout\" }");

        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(json(again).get("payloadHash")).isEqualTo(json(first).get("payloadHash"));
        assertThat(json(again).get("createdAt")).isEqualTo(json(first).get("createdAt"));
        assertThat(rows.operations(subject, operationId)).hasSize(1);
        assertThat(rows.attemptOutcomes(subject, operationId)).containsExactly("CLAIMED", "REPLAYED");
    }

    @Test
    void replayAnswersWithTheCurrentStatus() {
        api.submit(token, operationId.toString(), RESERVE);
        jdbc.update("UPDATE operation SET status = 'SUCCEEDED' WHERE subject_id = ? AND operation_id = ?", subject,
                operationId);

        var again = api.submit(token, operationId.toString(), RESERVE);

        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(json(again).get("status").asString()).isEqualTo("SUCCEEDED");
    }

    @Test
    void refusesKeyReuseWithAnotherPayloadAndRecordsTheConflict() {
        api.submit(token, operationId.toString(), RESERVE);
        var before = rows.operations(subject, operationId);
        String other = Checkout.command(3, "12.5");

        var response = api.send(api.request("/v1/operations", token, Map.of("Idempotency-Key", operationId.toString(),
                        "Content-Type", "application/json", "User-Agent", "opledger-test/1.0"))
                .POST(HttpRequest.BodyPublishers.ofString(other)).build());

        assertThat(response.statusCode()).isEqualTo(422);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        var problem = json(response);
        assertThat(problem.get("type").asString()).isEqualTo("https://opledger.dev/problems/key-reuse");
        assertThat(problem.get("status").asInt()).isEqualTo(422);
        assertThat(problem.get("operationId").asString()).isEqualTo(operationId.toString());
        assertThat(rows.operations(subject, operationId)).isEqualTo(before);
        assertThat(rows.attemptOutcomes(subject, operationId)).containsExactly("CLAIMED");
        var conflicts = rows.conflicts(subject, operationId);
        assertThat(conflicts).hasSize(1);
        assertThat(conflicts.getFirst())
                .containsEntry("stored_hash", before.getFirst().get("payload_hash"))
                .containsEntry("offered_hash", Command.parse(other.getBytes(StandardCharsets.UTF_8)).payloadHash().hex())
                .containsEntry("offered_command_type", "checkout")
                .containsEntry("user_agent", "opledger-test/1.0")
                .containsEntry("client_address", "127.0.0.1");
        assertThat(conflicts.getFirst().get("detected_at")).isNotNull();
        assertThat(conflicts.getFirst().get("request_id")).isNotNull();
    }

    @Test
    void refusesAnOperationIdAnotherSubjectHoldsAndStoresNothing() {
        String otherSubject = "user-" + UUID.randomUUID();
        var mine = api.submit(token, operationId.toString(), RESERVE);
        var before = rows.counts();

        var sameCommand = api.submit(TestTokens.forSubject(otherSubject), operationId.toString(), RESERVE);
        var otherCommand = api.submit(TestTokens.forSubject(otherSubject), operationId.toString(), Checkout.command(7));

        assertThat(mine.statusCode()).isEqualTo(202);
        String storedHash = json(mine).get("payloadHash").asString();
        for (var refused : List.of(sameCommand, otherCommand)) {
            assertThat(refused.statusCode()).isEqualTo(422);
            assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            var problem = json(refused);
            assertThat(problem.get("type").asString()).isEqualTo("https://opledger.dev/problems/key-reuse");
            assertThat(problem.get("operationId").asString()).isEqualTo(operationId.toString());
            assertThat(problem.get("detail").asString()).contains("new operationId")
                    .doesNotContain(subject).doesNotContain(storedHash);
            assertThat(refused.body()).doesNotContain(subject).doesNotContain(storedHash);
        }
        assertThat(rows.counts()).isEqualTo(before);
        assertThat(rows.operationsWithId(operationId)).extracting(row -> row.get("subject_id")).containsExactly(subject);
        assertThat(rows.attemptOutcomes(subject, operationId)).containsExactly("CLAIMED");
        assertThat(rows.conflicts(subject, operationId)).isEmpty();
    }

    @Test
    void acceptsTheKeyInEitherCaseAndKeepsTheCanonicalForm() {
        var upper = api.submit(token, operationId.toString().toUpperCase(), RESERVE);
        var lower = api.submit(token, operationId.toString(), RESERVE);

        assertThat(upper.statusCode()).isEqualTo(202);
        assertThat(json(upper).get("operationId").asString()).isEqualTo(operationId.toString());
        assertThat(lower.statusCode()).isEqualTo(200);
    }

    @Test
    void readsTheSubjectsOwnOperationOnly() {
        String otherToken = TestTokens.forSubject("someone-else-" + UUID.randomUUID());
        UUID theirOperationId = UUID.randomUUID();
        api.submit(token, operationId.toString(), RESERVE);
        assertThat(api.submit(otherToken, theirOperationId.toString(), Checkout.command(5)).statusCode()).isEqualTo(202);

        var own = api.get(token, "/v1/operations/" + operationId);
        var mineAsThem = api.get(otherToken, "/v1/operations/" + operationId);
        var theirsAsMe = api.get(token, "/v1/operations/" + theirOperationId);
        var theirsAsThem = api.get(otherToken, "/v1/operations/" + theirOperationId);
        var unknown = api.get(token, "/v1/operations/" + UUID.randomUUID());

        assertThat(own.statusCode()).isEqualTo(200);
        assertThat(json(own).get("status").asString()).isEqualTo("ACCEPTED");
        assertThat(mineAsThem.statusCode()).isEqualTo(404);
        assertThat(json(mineAsThem).get("type").asString()).isEqualTo("https://opledger.dev/problems/not-found");
        assertThat(theirsAsMe.statusCode()).isEqualTo(404);
        assertThat(theirsAsThem.statusCode()).isEqualTo(200);
        assertThat(unknown.statusCode()).isEqualTo(404);
    }
}
