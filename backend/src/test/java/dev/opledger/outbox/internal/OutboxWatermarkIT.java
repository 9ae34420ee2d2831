package dev.opledger.outbox.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.claim.ClaimService;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.EventsIntegrationTest;
import dev.opledger.testing.Operations;
import dev.opledger.testing.TopicReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The relay reads from a watermark instead of an index of unpublished rows (issue 13: the
 * publish marks are HOT updates). Ids are taken when a row is written, not when it commits, so
 * the watermark must never pass a row whose transaction is still open: such a row, committed
 * after many later rows were published and the relay moved on, is published all the same, once.
 */
@EventsIntegrationTest
class OutboxWatermarkIT {

    private static final String TOPIC = "opledger.operation-events";

    @Autowired
    ApplicationContext node;

    @Autowired
    OutboxRelay nodesRelay;

    @Autowired
    EventsProperties properties;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    PlatformTransactionManager transactions;

    @Autowired
    ClaimService claims;

    private OutboxRelay relay;

    @BeforeEach
    void startAQuickRelay() {
        nodesRelay.stop();
        var relays = TestRelays.of(node);
        // a short lease: an idle relay runs a batch (and a step of the watermark) every half second
        relay = relays.relay("relay-watermark", relays.settings(properties.batchSize(), Duration.ofMillis(10),
                Duration.ofSeconds(2)));
        relay.start();
    }

    @AfterEach
    void restartTheNodesRelay() {
        relay.stop();
        nodesRelay.start();
    }

    private long watermark() {
        return jdbc.queryForObject("SELECT published_below FROM outbox_relay WHERE name = 'relay'", Long.class);
    }

    /** Waits until the relay has run {@code count} more batches (each renews the election's lease). */
    private void awaitBatches(int count) {
        for (int i = 0; i < count; i++) {
            var before = jdbc.queryForObject("SELECT expires_at FROM outbox_relay WHERE name = 'relay'", Object.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> !before.equals(
                    jdbc.queryForObject("SELECT expires_at FROM outbox_relay WHERE name = 'relay'", Object.class)));
        }
    }

    private long rowId(OperationId operationId) {
        return jdbc.queryForObject("SELECT id FROM outbox_event WHERE operation_id = ? AND sequence = 1", Long.class,
                operationId.value());
    }

    private boolean published(List<OperationId> ids) {
        return Boolean.TRUE.equals(jdbc.queryForObject("SELECT count(*) = count(published_at) AND count(*) > 0 "
                + "FROM outbox_event WHERE operation_id = ANY(?::uuid[])", Boolean.class, array(ids)));
    }

    private static String array(List<OperationId> ids) {
        return "{" + String.join(",", ids.stream().map(OperationId::toString).toList()) + "}";
    }

    private static Map<String, Long> timesOnTheTopic(List<OperationId> ids) {
        var wanted = ids.stream().map(OperationId::toString).toList();
        return TopicReader.readAll(TOPIC).stream().map(record -> record.key()).filter(wanted::contains)
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
    }

    @Test
    void anEventCommittedAfterLaterEventsWerePublishedIsPublishedOnceAndTheWatermarkWaitsForIt() throws Exception {
        var subject = new SubjectId("watermark-" + UUID.randomUUID());
        var claimed = new AtomicReference<OperationId>();
        var written = new CountDownLatch(1);
        var commit = new CountDownLatch(1);
        ExecutorService writer = Executors.newSingleThreadExecutor();
        Future<?> open = writer.submit(() -> new TransactionTemplate(transactions).executeWithoutResult(status -> {
            claimed.set(Operations.claim(claims, subject, 1).getFirst());
            written.countDown();
            await().atMost(Duration.ofSeconds(60)).until(() -> commit.await(100, TimeUnit.MILLISECONDS));
        }));
        try {
            assertThat(written.await(10, TimeUnit.SECONDS)).isTrue();
            OperationId late = claimed.get();
            // later ids, committed and published while the first one's transaction is open
            List<OperationId> later = Operations.claim(claims, subject, 5);
            await().atMost(Duration.ofSeconds(20)).until(() -> published(later));
            long lateId = jdbc.queryForObject("SELECT min(id) FROM outbox_event WHERE operation_id = ANY(?::uuid[])",
                    Long.class, array(later)) - 1;
            // the relay runs a batch every half second while idle: give it several to move on
            awaitBatches(6);
            assertThat(watermark()).as("the watermark waits below the row whose transaction is open").isLessThanOrEqualTo(lateId);

            commit.countDown();
            open.get(10, TimeUnit.SECONDS);
            assertThat(rowId(late)).isEqualTo(lateId);
            await().atMost(Duration.ofSeconds(20)).until(() -> published(List.of(late)));
            await().atMost(Duration.ofSeconds(20)).until(() -> watermark() > rowId(later.getLast()));
            List<OperationId> all = new ArrayList<>(later);
            all.add(late);
            await().atMost(Duration.ofSeconds(20)).until(() -> timesOnTheTopic(all).size() == all.size());
            assertThat(timesOnTheTopic(all).values()).as("each event once").containsOnly(1L);
        } finally {
            commit.countDown();
            writer.shutdownNow();
        }
    }

    @Test
    void eventsOfConcurrentWritersThatCommitOutOfOrderAreAllPublishedOnce() throws Exception {
        var subject = new SubjectId("watermark-" + UUID.randomUUID());
        List<OperationId> ids = Collections.synchronizedList(new ArrayList<>());
        ExecutorService writers = Executors.newFixedThreadPool(8);
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            done.add(writers.submit(() -> new TransactionTemplate(transactions).executeWithoutResult(status -> {
                ids.add(Operations.claim(claims, subject, 1).getFirst());
                // hold the row's id uncommitted for a while, so later ids commit and publish first
                sleep(ThreadLocalRandom.current().nextInt(0, 250));
            })));
        }
        for (Future<?> each : done) {
            each.get(60, TimeUnit.SECONDS);
        }
        writers.shutdown();

        await().atMost(Duration.ofSeconds(30)).until(() -> published(ids));
        await().atMost(Duration.ofSeconds(30)).until(() -> timesOnTheTopic(ids).size() == ids.size());
        assertThat(timesOnTheTopic(ids).values()).as("each event once").containsOnly(1L);
        long last = jdbc.queryForObject("SELECT max(id) FROM outbox_event WHERE operation_id = ANY(?::uuid[])",
                Long.class, array(ids));
        await().atMost(Duration.ofSeconds(20)).until(() -> watermark() > last);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM outbox_event WHERE id < ? AND published_at IS NULL",
                Long.class, watermark())).as("nothing unpublished below the watermark").isZero();
    }

    @Test
    void noIndexUsesPublishedAtSoThatThePublishMarkIsAHotUpdate() {
        List<String> indexes = jdbc.queryForList("""
                SELECT indexrelid::regclass::text FROM pg_index
                WHERE indrelid = 'outbox_event'::regclass
                  AND (pg_get_indexdef(indexrelid) LIKE '%published_at%'
                       OR coalesce(pg_get_expr(indpred, indrelid), '') LIKE '%published_at%')
                """, String.class);
        assertThat(indexes).isEmpty();
    }

    private static void sleep(int millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
