package dev.opledger.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.claim.ClaimService;
import dev.opledger.claim.LeasedOperation;
import dev.opledger.claim.LifecycleService;
import dev.opledger.claim.OtherNode;
import dev.opledger.claim.internal.OperationReader;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.ApiClient;
import dev.opledger.testing.Checkout;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.Operations;
import dev.opledger.testing.TestTokens;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code Prefer: wait=N} on {@code GET /v1/operations/{id}} and {@code POST /v1/operations}: the
 * answer comes when the operation settles — on this node or on another — or after N seconds, with
 * its state then and {@code Preference-Applied}; an invalid preference is ignored, a long one is
 * bounded, another subject's operation is not found at once.
 */
@NodeIntegrationTest
class PreferWaitIT {

    private static final String NODE = "prefer-wait-test";

    @LocalServerPort
    int port;

    @Autowired
    ClaimService claims;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    MeterRegistry meters;

    @Autowired
    DataSource dataSource;

    @Autowired
    OperationReader reader;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private double waiters() {
        return meters.get("opledger.operation.waiters").gauge().value();
    }

    private CompletableFuture<HttpResponse<String>> waitingGet(SubjectId subject, OperationId id, String prefer) {
        return http.sendAsync(ApiClient.onPort(port).request("/v1/operations/" + id, TestTokens.forSubject(subject.value()),
                Map.of("Prefer", prefer)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A waiting read, sent and registered as a waiter on the node (so a settle from now on ends it). */
    private CompletableFuture<HttpResponse<String>> registeredWaitingGet(SubjectId subject, OperationId id,
            String prefer) {
        double before = waiters();
        var answer = waitingGet(subject, id, prefer);
        await().atMost(Duration.ofSeconds(10)).until(() -> waiters() > before);
        return answer;
    }

    private static String status(HttpResponse<String> response) {
        return ApiClient.json(response).get("status").asString();
    }

    @Test
    void aWaitingReadIsAnsweredAsSoonAsTheOperationEndsWithItsEndState() throws Exception {
        var subject = new SubjectId("wait-" + UUID.randomUUID());
        OperationId id = Operations.claim(claims, subject, 1).getFirst();
        LeasedOperation leased = Operations.lease(lifecycle, NODE, id);

        long started = System.nanoTime();
        var answer = registeredWaitingGet(subject, id, "wait=25");
        assertThat(answer).isNotDone();
        assertThat(lifecycle.finishRun(leased.fence(), NODE, OperationStatus.SUCCEEDED, null)).isTrue();

        HttpResponse<String> response = answer.get(10, TimeUnit.SECONDS);
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(status(response)).isEqualTo("SUCCEEDED");
        assertThat(response.headers().firstValue("Preference-Applied")).hasValue("wait=25");
        assertThat(tookMillis).as("answered when it ended, not after the 25 s").isLessThan(15_000);
    }

    /**
     * The waited answer is written when the wait ends, outside Spring MVC ({@link WaitedAnswers});
     * it must still be the answer MVC gives a read: the same headers
     * (Spring Security's among them), the same JSON, and Preference-Applied on top.
     */
    @Test
    void anAnswerWrittenWhenTheWaitEndsCarriesWhatAReadCarries() throws Exception {
        var subject = new SubjectId("wait-same-" + UUID.randomUUID());
        OperationId id = Operations.claim(claims, subject, 1).getFirst();
        LeasedOperation leased = Operations.lease(lifecycle, NODE, id);
        var answer = registeredWaitingGet(subject, id, "wait=25");
        assertThat(lifecycle.finishRun(leased.fence(), NODE, OperationStatus.SUCCEEDED, null)).isTrue();
        HttpResponse<String> waited = answer.get(10, TimeUnit.SECONDS);

        HttpResponse<String> read = ApiClient.onPort(port).get(TestTokens.forSubject(subject.value()),
                "/v1/operations/" + id);
        assertThat(waited.statusCode()).isEqualTo(read.statusCode()).isEqualTo(200);
        assertThat(ApiClient.json(waited)).isEqualTo(ApiClient.json(read));
        var readHeaders = new TreeMap<>(read.headers().map());
        var waitedHeaders = new TreeMap<>(waited.headers().map());
        // the framing may differ (MVC streams its answer chunked, the waited one has its length)
        readHeaders.keySet().removeAll(Set.of("date", "content-length", "transfer-encoding"));
        assertThat(waitedHeaders.remove("preference-applied")).containsExactly("wait=25");
        waitedHeaders.keySet().removeAll(Set.of("date", "content-length", "transfer-encoding"));
        assertThat(readHeaders).containsKeys("content-type", "x-content-type-options", "cache-control");
        assertThat(waitedHeaders).isEqualTo(readHeaders);
        assertThat(waited.headers().firstValueAsLong("content-length"))
                .hasValue(waited.body().getBytes(StandardCharsets.UTF_8).length);
    }

    @Test
    void aWaitIsEndedByAnotherNodesStatusChangeThroughItsNotification() throws Exception {
        var subject = new SubjectId("wait-other-" + UUID.randomUUID());
        OperationId id = Operations.claim(claims, subject, 1).getFirst();
        try (var other = new OtherNode(dataSource, reader)) {
            LeasedOperation leased = Operations.lease(other.lifecycle, NODE, id);
            var answer = registeredWaitingGet(subject, id, "wait=25");

            // this node's own services are not told: only the other node's NOTIFY can wake the waiter
            assertThat(other.lifecycle.finishRun(leased.fence(), NODE, OperationStatus.NEEDS_REVIEW, "a call in flight"))
                    .isTrue();

            HttpResponse<String> response = answer.get(15, TimeUnit.SECONDS);
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(status(response)).as("a person is needed: the wait ends").isEqualTo("NEEDS_REVIEW");
        }
    }

    @Test
    void whenNothingHappensTheWaitEndsAfterNSecondsWithTheCurrentState() {
        var subject = new SubjectId("wait-idle-" + UUID.randomUUID());
        OperationId id = Operations.claim(claims, subject, 1).getFirst();

        long started = System.nanoTime();
        HttpResponse<String> response = waitingGet(subject, id, "wait=1").join();
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(status(response)).isEqualTo("ACCEPTED");
        assertThat(response.headers().firstValue("Preference-Applied")).hasValue("wait=1");
        assertThat(tookMillis).isBetween(950L, 8_000L);
    }

    @Test
    void aSubmissionWithAWaitIsAnsweredWith202AndTheStateAtTheEndOfTheWait() {
        var subject = new SubjectId("wait-post-" + UUID.randomUUID());
        String id = UUID.randomUUID().toString();
        var request = ApiClient.onPort(port).request("/v1/operations", TestTokens.forSubject(subject.value()),
                Map.of("Idempotency-Key", id, "Content-Type", "application/json", "Prefer", "respond-async, wait=1"))
                .POST(HttpRequest.BodyPublishers.ofString(Checkout.command())).build();

        long started = System.nanoTime();
        HttpResponse<String> response = ApiClient.onPort(port).send(request);
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

        assertThat(response.statusCode()).isEqualTo(202);
        assertThat(response.headers().firstValue("Location")).hasValue("/v1/operations/" + id);
        assertThat(response.headers().firstValue("Preference-Applied")).hasValue("wait=1");
        assertThat(status(response)).isEqualTo("ACCEPTED");
        assertThat(tookMillis).isGreaterThanOrEqualTo(950L);

        // the replay waits too, and says it is one
        HttpResponse<String> replay = ApiClient.onPort(port).send(request);
        assertThat(replay.statusCode()).isEqualTo(200);
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(replay.headers().firstValue("Preference-Applied")).hasValue("wait=1");
    }

    /**
     * Concurrent duplicates of one waiting submission: one claims (202), the rest replay (200), all
     * wait, and when the operation ends every one is answered once, with its end state.
     */
    @Test
    void concurrentDuplicateWaitingSubmissionsAreAllAnsweredWithTheOneOperationsEnd() throws Exception {
        var subject = new SubjectId("wait-dup-" + UUID.randomUUID());
        OperationId id = OperationId.parse(UUID.randomUUID().toString());
        var request = ApiClient.onPort(port).request("/v1/operations", TestTokens.forSubject(subject.value()),
                Map.of("Idempotency-Key", id.toString(), "Content-Type", "application/json", "Prefer", "wait=25"))
                .POST(HttpRequest.BodyPublishers.ofString(Checkout.command())).build();
        int duplicates = 12;
        double before = waiters();
        List<CompletableFuture<HttpResponse<String>>> answers = IntStream.range(0, duplicates)
                .mapToObj(i -> http.sendAsync(request, HttpResponse.BodyHandlers.ofString())).toList();
        await().atMost(Duration.ofSeconds(20)).until(() -> waiters() >= before + duplicates);
        assertThat(answers).noneMatch(CompletableFuture::isDone);

        LeasedOperation leased = Operations.lease(lifecycle, NODE, id);
        assertThat(lifecycle.finishRun(leased.fence(), NODE, OperationStatus.SUCCEEDED, null)).isTrue();

        List<HttpResponse<String>> responses = new ArrayList<>();
        for (var answer : answers) {
            responses.add(answer.get(15, TimeUnit.SECONDS));
        }
        assertThat(responses).extracting(HttpResponse::statusCode).containsOnly(200, 202)
                .filteredOn(code -> code == 202).hasSize(1);
        assertThat(responses).filteredOn(response -> response.statusCode() == 200)
                .allSatisfy(replay -> assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true"));
        assertThat(responses).allSatisfy(response -> {
            assertThat(status(response)).isEqualTo("SUCCEEDED");
            assertThat(response.headers().firstValue("Preference-Applied")).hasValue("wait=25");
        });
        assertThat(new JdbcTemplate(dataSource).queryForObject(
                "SELECT count(*) FROM operation WHERE operation_id = ?", Long.class, id.value())).isEqualTo(1L);
    }

    @Test
    void aSettledOperationIsAnsweredAtOnceAndALongWaitIsBounded() {
        var subject = new SubjectId("wait-done-" + UUID.randomUUID());
        OperationId id = Operations.claim(claims, subject, 1).getFirst();
        assertThat(lifecycle.finishRun(Operations.lease(lifecycle, NODE, id).fence(), NODE, OperationStatus.FAILED, "no"))
                .isTrue();

        long started = System.nanoTime();
        HttpResponse<String> response = waitingGet(subject, id, "WAIT=\"99999999999999999999\"").join();

        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isLessThan(5_000L);
        assertThat(status(response)).isEqualTo("FAILED");
        assertThat(response.headers().firstValue("Preference-Applied")).hasValue("wait=30");
    }

    @Test
    void anInvalidWaitIsIgnoredAndAnotherSubjectsOperationIsNotFoundAtOnce() {
        var owner = new SubjectId("wait-owner-" + UUID.randomUUID());
        OperationId id = Operations.claim(claims, owner, 1).getFirst();

        HttpResponse<String> invalid = waitingGet(owner, id, "wait=-5").join();
        assertThat(invalid.statusCode()).isEqualTo(200);
        assertThat(status(invalid)).isEqualTo("ACCEPTED");
        assertThat(invalid.headers().firstValue("Preference-Applied")).isEmpty();

        long started = System.nanoTime();
        HttpResponse<String> stranger = waitingGet(new SubjectId("wait-stranger-" + UUID.randomUUID()), id, "wait=20").join();
        assertThat(stranger.statusCode()).isEqualTo(404);
        assertThat(stranger.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isLessThan(5_000L);
    }
}
