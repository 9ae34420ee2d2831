package dev.opledger.api;

import static dev.opledger.testing.ApiClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.testing.ApiClient;
import dev.opledger.testing.Checkout;
import dev.opledger.testing.LedgerRows;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.TestTokens;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import org.junit.jupiter.api.RepeatedTest;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * 64 attempts of one operation at the same instant, over real HTTP: one operation row, and every
 * attempt converges on it (or, from another subject, is refused). Repeated, because the races it
 * guards against are timing-dependent.
 */
@NodeIntegrationTest
class ConcurrentClaimIT {

    private static final int PARALLEL = 64;

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    @RepeatedTest(3)
    void identicalAttemptsConvergeOnOneOperation() throws Exception {
        String subject = "racer-" + UUID.randomUUID();
        UUID operationId = UUID.randomUUID();
        String body = Checkout.command();

        List<HttpResponse<String>> responses = all(subject, operationId, attempt -> body);

        assertThat(responses).extracting(HttpResponse::statusCode).containsOnly(202, 200);
        assertThat(responses).filteredOn(r -> r.statusCode() == 202).hasSize(1);
        assertThat(responses).extracting(r -> json(r).get("createdAt").asString()).containsOnly(
                json(responses.getFirst()).get("createdAt").asString());
        assertThat(responses).extracting(r -> json(r).get("payloadHash").asString()).containsOnly(
                json(responses.getFirst()).get("payloadHash").asString());
        var rows = new LedgerRows(jdbc);
        assertThat(rows.operations(subject, operationId)).hasSize(1);
        List<String> outcomes = rows.attemptOutcomes(subject, operationId);
        assertThat(outcomes).hasSize(PARALLEL).containsOnlyOnce("CLAIMED");
        assertThat(rows.conflicts(subject, operationId)).isEmpty();
    }

    @RepeatedTest(3)
    void attemptsWithDifferentBodiesClaimOnceAndTheRestAreRefused() throws Exception {
        String subject = "racer-" + UUID.randomUUID();
        UUID operationId = UUID.randomUUID();

        List<HttpResponse<String>> responses = all(subject, operationId,
                attempt -> Checkout.command(attempt + 1));

        assertThat(responses).filteredOn(r -> r.statusCode() == 202).hasSize(1);
        assertThat(responses).filteredOn(r -> r.statusCode() == 422).hasSize(PARALLEL - 1)
                .allSatisfy(r -> assertThat(json(r).get("type").asString())
                        .isEqualTo("https://opledger.dev/problems/key-reuse"));
        var rows = new LedgerRows(jdbc);
        var stored = rows.operations(subject, operationId);
        assertThat(stored).hasSize(1);
        var conflicts = rows.conflicts(subject, operationId);
        assertThat(conflicts).hasSize(PARALLEL - 1)
                .allSatisfy(c -> assertThat(c.get("stored_hash")).isEqualTo(stored.getFirst().get("payload_hash")));
        assertThat(conflicts).extracting(c -> c.get("offered_hash")).doesNotHaveDuplicates();
        assertThat(rows.attemptOutcomes(subject, operationId)).containsExactly("CLAIMED");
    }

    @RepeatedTest(5)
    void twoSubjectsRacingForOneOperationIdGetOneOperation() throws Exception {
        List<String> subjects = List.of("racer-" + UUID.randomUUID(), "racer-" + UUID.randomUUID());
        UUID operationId = UUID.randomUUID();

        List<HttpResponse<String>> responses = all(subjects::get, 2, operationId, attempt -> Checkout.command());

        assertThat(responses).extracting(HttpResponse::statusCode).containsExactlyInAnyOrder(202, 422);
        String winner = subjects.get(responses.get(0).statusCode() == 202 ? 0 : 1);
        var refused = responses.get(responses.get(0).statusCode() == 202 ? 1 : 0);
        assertThat(json(refused).get("type").asString()).isEqualTo("https://opledger.dev/problems/key-reuse");
        var rows = new LedgerRows(jdbc);
        assertThat(rows.operationsWithId(operationId)).extracting(row -> row.get("subject_id")).containsExactly(winner);
        assertThat(rows.attemptOutcomes(winner, operationId)).containsExactly("CLAIMED");
        assertThat(rows.conflicts(winner, operationId)).isEmpty();
    }

    /** Both subjects send many attempts at once: the one that wins keeps all of its attempts; the other stores nothing. */
    @RepeatedTest(3)
    void aSubjectsConcurrentAttemptsConvergeWhileAnotherSubjectsAreRefused() throws Exception {
        List<String> subjects = List.of("racer-" + UUID.randomUUID(), "racer-" + UUID.randomUUID());
        UUID operationId = UUID.randomUUID();

        List<HttpResponse<String>> responses = all(attempt -> subjects.get(attempt % 2), PARALLEL, operationId,
                attempt -> Checkout.command());

        var rows = new LedgerRows(jdbc);
        var stored = rows.operationsWithId(operationId);
        assertThat(stored).hasSize(1);
        int winner = subjects.indexOf((String) stored.getFirst().get("subject_id"));
        List<HttpResponse<String>> winners = new ArrayList<>();
        List<HttpResponse<String>> losers = new ArrayList<>();
        for (int attempt = 0; attempt < PARALLEL; attempt++) {
            (attempt % 2 == winner ? winners : losers).add(responses.get(attempt));
        }
        assertThat(winners).extracting(HttpResponse::statusCode).containsOnly(202, 200).containsOnlyOnce(202);
        assertThat(losers).extracting(HttpResponse::statusCode).containsOnly(422);
        assertThat(losers).allSatisfy(r -> assertThat(json(r).get("type").asString())
                .isEqualTo("https://opledger.dev/problems/key-reuse"));
        String winnerSubject = subjects.get(winner);
        assertThat(rows.attemptOutcomes(winnerSubject, operationId)).hasSize(PARALLEL / 2).containsOnlyOnce("CLAIMED");
        assertThat(rows.conflicts(winnerSubject, operationId)).isEmpty();
    }

    private List<HttpResponse<String>> all(String subject, UUID operationId, IntFunction<String> bodyOfAttempt)
            throws Exception {
        return all(attempt -> subject, PARALLEL, operationId, bodyOfAttempt);
    }

    /** Sends the attempts at once and answers their responses in attempt order. */
    private List<HttpResponse<String>> all(IntFunction<String> subjectOfAttempt, int attempts, UUID operationId,
            IntFunction<String> bodyOfAttempt) throws Exception {
        var api = ApiClient.onPort(port);
        var start = new CountDownLatch(1);
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<HttpResponse<String>>> futures = new ArrayList<>();
            for (int attempt = 0; attempt < attempts; attempt++) {
                String body = bodyOfAttempt.apply(attempt);
                String token = TestTokens.forSubject(subjectOfAttempt.apply(attempt));
                futures.add(threads.submit(() -> {
                    start.await();
                    return api.submit(token, operationId.toString(), body);
                }));
            }
            start.countDown();
            List<HttpResponse<String>> responses = new ArrayList<>();
            for (var future : futures) {
                responses.add(future.get());
            }
            return responses;
        }
    }
}
