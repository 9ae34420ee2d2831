package dev.opledger.feed.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.testing.LockWaits;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.PreparedSql;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A poll's entries written in one statement of arrays ({@link FeedEntries#applyAll}) are the
 * entries the one-event statement ({@link FeedEntries#apply}) writes, field for field, for generated
 * events (seeded, so a failure reproduces): text with quotes, backslashes, braces, commas, NULL
 * spelled out and any other character PostgreSQL's text holds, null tools and step keys, instants
 * to the microsecond; each event once however often the poll brings it or an earlier poll did, in
 * the poll's order.
 */
@NodeIntegrationTest
class FeedEntriesApplyAllIT {

    private static final long SEED = 1304;
    private static final int POLLS = 60;
    /** What array literals and their parsers treat specially, among other characters. */
    private static final String AWKWARD = "\"\\{},; \t\nNULLnull'()[]=:é€😀\u00a0\u2028";

    @Autowired
    FeedEntries entries;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    DataSource dataSource;

    @Test
    void aPollsEntriesAreTheOneEventStatementsFieldForFieldEachOnceInThePollsOrder() {
        var random = new Random(SEED);
        List<FeedEvent> earlier = new ArrayList<>();
        for (int p = 0; p < POLLS; p++) {
            List<FeedEvent> fresh = new ArrayList<>();
            for (int i = 1 + random.nextInt(40); i > 0; i--) {
                fresh.add(event(random));
            }
            // the poll: new events, some of them twice, some events of earlier polls again, shuffled
            List<FeedEvent> poll = new ArrayList<>(fresh);
            for (int i = random.nextInt(4); i > 0; i--) {
                poll.add(fresh.get(random.nextInt(fresh.size())));
            }
            for (int i = earlier.isEmpty() ? 0 : random.nextInt(3); i > 0; i--) {
                poll.add(earlier.get(random.nextInt(earlier.size())));
            }
            Collections.shuffle(poll, random);
            List<FeedEvent> firstTimes = poll.stream().filter(event -> !earlier.contains(event)).distinct().toList();

            int written = entries.applyAll(poll);
            List<List<Object>> together = entries(firstTimes);
            // the same poll again, one event at a time, after the one statement's entries are taken away
            jdbc.update("DELETE FROM activity_feed_entry WHERE event_id::text = ANY (?)", (Object) ids(firstTimes));
            for (FeedEvent event : poll) {
                entries.apply(event);
            }
            List<List<Object>> oneByOne = entries(firstTimes);

            assertThat(written).isEqualTo(firstTimes.size());
            // the same values, in the poll's order of first appearance either way
            assertThat(together).hasSize(firstTimes.size()).isEqualTo(oneByOne);
            assertThat(together).extracting(values -> values.getFirst())
                    .containsExactlyElementsOf(firstTimes.stream().map(FeedEvent::eventId).toList());
            assertThat(together.getFirst().get(8)).isNotNull();
            earlier.addAll(fresh);
        }
        assertThat(jdbc.queryForObject("SELECT count(*) FROM activity_feed_entry WHERE event_id::text = ANY (?)", Long.class,
                (Object) ids(earlier))).isEqualTo(earlier.size());
    }

    /** The events' entries in the order they were written (by id), without the id. */
    private List<List<Object>> entries(List<FeedEvent> events) {
        return jdbc.queryForList("""
                SELECT event_id, subject_id, operation_id, sequence, type, status, tool, step_key, occurred_at, id
                FROM activity_feed_entry WHERE event_id::text = ANY (?) ORDER BY id""", (Object) ids(events))
                .stream().map(FeedEntriesApplyAllIT::values).toList();
    }

    @Test
    void aPollOfOnlyEventsAppliedBeforeWritesNothing() {
        var random = new Random(SEED + 1);
        List<FeedEvent> poll = List.of(event(random), event(random), event(random));
        assertThat(entries.applyAll(poll)).isEqualTo(3);

        assertThat(entries.applyAll(poll)).isZero();
        assertThat(entries.applyAll(List.of())).isZero();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM activity_feed_entry WHERE event_id::text = ANY (?)", Long.class,
                (Object) ids(poll))).isEqualTo(3);
    }

    /**
     * Two consumers with the same event (a rebalance hands its partition over while the first still
     * writes): the second's statement finds no entry, then meets the first's uncommitted one on the
     * unique key and waits; once that commits, the poll is applied all the same, each event once.
     */
    @Test
    void anEntryCommittedByAnotherConsumerDuringThePollLeavesItsOtherEntriesWritten() throws Exception {
        var random = new Random(SEED + 2);
        FeedEvent taken = event(random);
        FeedEvent other = event(random);
        try (Connection first = dataSource.getConnection()) {
            first.setAutoCommit(false);
            try (var insert = first.prepareStatement("INSERT INTO activity_feed_entry (subject_id, operation_id, event_id, "
                    + "sequence, type, status, occurred_at) VALUES (?, ?, ?, ?, ?, ?, now())")) {
                insert.setString(1, taken.subjectId());
                insert.setObject(2, taken.operationId());
                insert.setObject(3, taken.eventId());
                insert.setInt(4, taken.sequence());
                insert.setString(5, taken.type());
                insert.setString(6, taken.status());
                insert.executeUpdate();
            }
            CompletableFuture<Integer> second = CompletableFuture.supplyAsync(() -> entries.applyAll(List.of(taken, other)));
            await().atMost(Duration.ofSeconds(10)).until(() -> LockWaits.aStatementWaits(jdbc, "WITH incoming AS"));
            first.commit();

            assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        }
        assertThat(jdbc.queryForObject("SELECT count(*) FROM activity_feed_entry WHERE event_id::text = ANY (?)", Long.class,
                (Object) ids(List.of(taken, other)))).isEqualTo(2);
    }

    /**
     * The poll's look-up of existing entries probes the key for each event, whatever the planner
     * knows of the table: a generic plan, made here on a table that was never analyzed, as the
     * node's connections make one in their first minutes (an anti-join over the whole table stayed
     * in such a plan for good in a benchmark run, issue 13).
     */
    @Test
    void aPollsLookUpProbesTheKeyEvenInAGenericPlan() {
        String plan = jdbc.execute((ConnectionCallback<String>) connection -> {
            try (var statement = connection.createStatement()) {
                statement.execute("PREPARE feed_poll AS " + PreparedSql.numbered(FeedEntries.APPLY_ALL));
                try {
                    connection.setAutoCommit(false);
                    statement.execute("SET LOCAL plan_cache_mode = force_generic_plan");
                    var lines = new StringBuilder();
                    try (var rows = statement.executeQuery("EXPLAIN EXECUTE feed_poll("
                            + String.join(", ", Collections.nCopies(9, "'{}'")) + ")")) {
                        while (rows.next()) {
                            lines.append(rows.getString(1)).append('\n');
                        }
                    }
                    connection.rollback();
                    return lines.toString();
                } finally {
                    connection.setAutoCommit(true);
                    statement.execute("DEALLOCATE feed_poll");
                }
            }
        });

        assertThat(plan).doesNotContainPattern("Seq Scan on activity_feed_entry\\b")
                .contains("Index Only Scan using activity_feed_entry_pk");
    }

    private static String[] ids(List<FeedEvent> events) {
        return events.stream().map(event -> event.eventId().toString()).toArray(String[]::new);
    }

    private static List<Object> values(Map<String, Object> row) {
        List<Object> values = new ArrayList<>(row.values());
        values.removeLast(); // the id
        return values;
    }

    private static FeedEvent event(Random random) {
        boolean tool = random.nextBoolean();
        // whole microseconds, as PostgreSQL keeps them and as the relay's events carry them
        Instant occurredAt = Instant.parse("2026-01-01T00:00:00Z")
                .plus(random.nextLong(400L * 24 * 3600 * 1_000_000), ChronoUnit.MICROS);
        return new FeedEvent(UUID.randomUUID(), UUID.randomUUID(), text(random, 1), 1 + random.nextInt(1000),
                text(random, 1), text(random, 1), tool ? text(random, 0) : null, tool ? nullable(random) : null, occurredAt);
    }

    private static @Nullable String nullable(Random random) {
        return random.nextInt(5) == 0 ? null : text(random, 0);
    }

    /** At least {@code least} characters: awkward ones, ASCII, and any code point but NUL (text cannot hold it). */
    private static String text(Random random, int least) {
        var text = new StringBuilder();
        for (int i = least + random.nextInt(12); i > 0; i--) {
            switch (random.nextInt(3)) {
                case 0 -> text.appendCodePoint(AWKWARD.codePointAt(AWKWARD.offsetByCodePoints(0,
                        random.nextInt(AWKWARD.codePointCount(0, AWKWARD.length())))));
                case 1 -> text.append((char) (' ' + random.nextInt(95)));
                default -> {
                    int codePoint;
                    do {
                        codePoint = 1 + random.nextInt(0x10FFFF);
                    } while (codePoint >= 0xD800 && codePoint <= 0xDFFF);
                    text.appendCodePoint(codePoint);
                }
            }
        }
        return text.toString();
    }
}
