package dev.opledger.submission;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.attest.AttemptHeaders;
import dev.opledger.operation.Command;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.Checkout;
import dev.opledger.testing.LedgerRows;
import dev.opledger.testing.NodeIntegrationTest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The submission sequence as every channel sees it, without HTTP: the outcomes are types, a
 * refusal before the claim stores nothing, and concurrent identical submissions make one operation.
 * (The REST mapping of the same outcomes is tested over HTTP in the {@code api} tests.)
 */
@NodeIntegrationTest
class SubmissionServiceIT {

    private static final Submission.Proof NO_PROOF = new Submission.Proof.Device(new AttemptHeaders(null, null, null));

    @Autowired
    SubmissionService submissions;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void concurrentIdenticalSubmissionsMakeOneOperationAndOneAcceptedEvent() throws Exception {
        var subject = subject();
        var operationId = OperationId.random();
        byte[] body = Checkout.command().getBytes(StandardCharsets.UTF_8);
        int callers = 16;
        var start = new CountDownLatch(1);
        List<SubmissionOutcome> outcomes;
        try (var pool = Executors.newFixedThreadPool(callers)) {
            var futures = IntStream.range(0, callers).mapToObj(i -> CompletableFuture.supplyAsync(() -> {
                awaitQuietly(start);
                return submissions.submit(submission(subject, operationId, body));
            }, pool)).toList();
            start.countDown();
            outcomes = futures.stream().map(CompletableFuture::join).toList();
        }

        assertThat(outcomes).filteredOn(SubmissionOutcome.Accepted.class::isInstance).hasSize(1);
        assertThat(outcomes).filteredOn(SubmissionOutcome.Replayed.class::isInstance).hasSize(callers - 1);
        assertThat(new LedgerRows(jdbc).operations(subject.value(), operationId.value())).hasSize(1);
        assertThat(jdbc.queryForList("SELECT type FROM outbox_event WHERE operation_id = ? ORDER BY sequence",
                String.class, operationId.value())).containsExactly("OperationAccepted");
    }

    @Test
    void theSameOperationIdWithAnotherCommandIsKeyReuseAndCarriesTheOfferedHash() {
        var subject = subject();
        var operationId = OperationId.random();
        submissions.submit(submission(subject, operationId, Checkout.command(1).getBytes(StandardCharsets.UTF_8)));
        byte[] other = Checkout.command(2).getBytes(StandardCharsets.UTF_8);

        assertThat(submissions.submit(submission(subject, operationId, other)))
                .isInstanceOfSatisfying(SubmissionOutcome.KeyReused.class, reused -> assertThat(reused.offeredHash())
                        .isEqualTo(Command.parse(other).payloadHash()));
    }

    @Test
    void anotherSubjectsOperationIdIsTakenAndNothingOfItIsSaid() {
        var operationId = OperationId.random();
        byte[] body = Checkout.command().getBytes(StandardCharsets.UTF_8);
        submissions.submit(submission(subject(), operationId, body));

        assertThat(submissions.submit(submission(subject(), operationId, body)))
                .isEqualTo(new SubmissionOutcome.OperationIdTaken());
    }

    @Test
    void refusalsBeforeTheClaimStoreNothing() {
        var rows = new LedgerRows(jdbc);
        var before = rows.counts();
        long eventsBefore = events();
        var subject = subject();

        assertThat(submissions.submit(submission(subject, OperationId.random(), "{\"type\":".getBytes(StandardCharsets.UTF_8))))
                .isInstanceOf(SubmissionOutcome.MalformedCommand.class);
        assertThat(submissions.submit(submission(subject, OperationId.random(),
                "{\"type\":\"teleport\",\"arguments\":{}}".getBytes(StandardCharsets.UTF_8))))
                .isInstanceOfSatisfying(SubmissionOutcome.UnknownType.class,
                        unknown -> assertThat(unknown.knownTypes()).contains(Checkout.TYPE));
        assertThat(submissions.submit(submission(subject, OperationId.random(),
                Checkout.command(0).getBytes(StandardCharsets.UTF_8))))
                .isInstanceOfSatisfying(SubmissionOutcome.InvalidArguments.class, invalid -> assertThat(
                        invalid.violations()).anySatisfy(v -> assertThat(v.pointer()).isEqualTo("/arguments/quantity")));

        assertThat(rows.counts()).isEqualTo(before);
        assertThat(events()).isEqualTo(eventsBefore);
    }

    private long events() {
        return jdbc.queryForObject("SELECT count(*) FROM outbox_event", Long.class);
    }

    private static Submission submission(SubjectId subject, OperationId operationId, byte[] body) {
        return new Submission(subject, operationId, body, NO_PROOF,
                new Submission.Arrival(UUID.randomUUID(), "SubmissionServiceIT", "127.0.0.1"));
    }

    private static SubjectId subject() {
        return new SubjectId("submission-" + UUID.randomUUID());
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
