package dev.opledger.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.claim.ClaimService;
import dev.opledger.claim.LifecycleService;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.ApiClient;
import dev.opledger.testing.LedgerTables;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.Operations;
import dev.opledger.testing.TestTokens;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /v1/operations/{operationId}/cancel} over real HTTP: 202 while the worker has yet to
 * meet it, 200 once ended, the same answer for every repeat and for concurrent duplicates (one
 * cancel recorded); another subject's operation, or none, is a 404 problem and changes nothing.
 */
@NodeIntegrationTest
class CancelApiIT {

    private static final String NODE = "cancel-api-it-node";

    @LocalServerPort
    int port;

    @Autowired
    ClaimService claims;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    JdbcTemplate jdbc;

    SubjectId subject;
    String token;
    ApiClient api;

    @BeforeEach
    void setUp() {
        subject = new SubjectId("cancel-api-" + UUID.randomUUID());
        token = TestTokens.forSubject(subject.value());
        api = ApiClient.onPort(port);
    }

    private OperationId accepted() {
        return Operations.claim(claims, subject, 1).getFirst();
    }

    private long cancelRequests(OperationId id) {
        return jdbc.queryForObject("SELECT count(*) FROM outbox_event WHERE operation_id = ? AND type = 'CancelRequested'",
                Long.class, id.value());
    }

    @Test
    void anAcceptedOperationIsCancelledAnd200ForEveryRepeat() {
        OperationId id = accepted();

        var first = api.cancel(token, id.toString());
        var repeat = api.cancel(token, id.toString());

        assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
        JsonNode body = ApiClient.json(first);
        assertThat(body.get("operationId").asString()).isEqualTo(id.toString());
        assertThat(body.get("status").asString()).isEqualTo("CANCELLED");
        assertThat(body.get("cancel").get("state").asString()).isEqualTo("resolved");
        assertThat(body.get("cancel").get("resolution").asString()).isEqualTo("STOPPED");
        assertThat(repeat.statusCode()).isEqualTo(200);
        assertThat(ApiClient.json(repeat)).isEqualTo(body);
        assertThat(cancelRequests(id)).isEqualTo(1);
        assertThat(api.get(token, "/v1/operations/" + id).body()).contains("\"status\":\"CANCELLED\"")
                .doesNotContain("\"cancel\"");
    }

    @Test
    void aRunningOperationsCancelIsAccepted202UntilItsWorkerMeetsIt() {
        var run = Operations.lease(lifecycle, NODE, accepted());

        var pending = api.cancel(token, run.operationId().toString());

        assertThat(pending.statusCode()).as(pending.body()).isEqualTo(202);
        JsonNode body = ApiClient.json(pending);
        assertThat(body.get("status").asString()).isEqualTo("RUNNING");
        assertThat(body.get("cancel").get("state").asString()).isEqualTo("requested");
        assertThat(body.get("cancel").has("resolution")).isFalse();
        assertThat(api.cancel(token, run.operationId().toString()).statusCode()).isEqualTo(202);
    }

    @Test
    void anotherSubjectsOperationIs404AndUnchanged() {
        OperationId id = accepted();
        var tables = new LedgerTables(jdbc);
        Map<String, Long> before = tables.counts();

        var theirs = api.cancel(TestTokens.forSubject("other-" + UUID.randomUUID()), id.toString());
        var nobodys = api.cancel(token, UUID.randomUUID().toString());

        for (var response : List.of(theirs, nobodys)) {
            assertThat(response.statusCode()).isEqualTo(404);
            assertThat(response.headers().firstValue("Content-Type")).get().asString()
                    .startsWith("application/problem+json");
            assertThat(ApiClient.json(response).get("type").asString()).isEqualTo(ProblemType.NOT_FOUND.type().toString());
        }
        assertThat(tables.counts()).isEqualTo(before);
        assertThat(jdbc.queryForObject("SELECT status FROM operation WHERE operation_id = ?", String.class, id.value()))
                .isEqualTo("ACCEPTED");
    }

    @ParameterizedTest
    @ValueSource(strings = {"not-a-uuid", "00000000-0000-0000-0000-00000000000g", "%20", "00000000000000000000000000000000"})
    void anOperationIdThatIsNoUuidIs404(String operationId) {
        var response = api.cancel(token, operationId);

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(ApiClient.json(response).get("type").asString()).isEqualTo(ProblemType.NOT_FOUND.type().toString());
    }

    @Test
    void noTokenIs401AndCancelsNothing() {
        OperationId id = accepted();

        var response = api.cancel(null, id.toString());

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(cancelRequests(id)).isZero();
    }

    @Test
    void sixteenConcurrentCancelsRecordOneAndAllGetTheSameAnswer() throws Exception {
        var run = Operations.lease(lifecycle, NODE, accepted());
        int callers = 16;
        var barrier = new CyclicBarrier(callers);
        List<Future<HttpResponse<String>>> responses = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(callers)) {
            for (int i = 0; i < callers; i++) {
                responses.add(pool.submit(() -> {
                    barrier.await(10, TimeUnit.SECONDS);
                    return api.cancel(token, run.operationId().toString());
                }));
            }
            JsonNode first = ApiClient.json(responses.getFirst().get(30, TimeUnit.SECONDS));
            for (var response : responses) {
                assertThat(response.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(202);
                assertThat(ApiClient.json(response.get())).isEqualTo(first);
            }
        }
        assertThat(cancelRequests(run.operationId())).isEqualTo(1);
    }
}
