package dev.opledger.outbox.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.testing.LedgerOfItsOwn;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A batch's publish marks find its rows by the primary key however large the outbox has grown
 * since the relay's connection first marked one, on a database that is never analyzed (issue
 * 13): the mark's list of ids has no generic plan that uses the key on a small table, and one
 * made while the outbox was new, kept by the connection, read the whole outbox for every batch.
 */
class OutboxMarkPlansIT {

    private static final long EPOCH = 1;
    private static final int FIRST_BATCHES = 12;

    @Test
    void marksOfAnOutboxGrownWithoutStatisticsReadNoTableWhole() throws Exception {
        try (LedgerOfItsOwn ledger = LedgerOfItsOwn.create().migrate().neverAnalyzed()) {
            JdbcTemplate jdbc = ledger.jdbc();
            jdbc.update("UPDATE outbox_relay SET epoch = ? WHERE name = 'relay'", EPOCH);
            var rows = new OutboxRows(jdbc);
            for (int batch = 0; batch < FIRST_BATCHES; batch++) {
                assertThat(rows.markPublished(events(jdbc, ledger.operation("first-" + batch), 3), EPOCH)).isEqualTo(3);
            }
            ledger.grow(30_000);
            List<Long> batch = events(jdbc, ledger.operation("after-growth"), 3);

            Map<String, Long> reads = ledger.sequentialReads(
                    () -> assertThat(rows.markPublished(batch, EPOCH)).isEqualTo(3));

            assertThat(reads).as("a batch's marks").doesNotContainKey("outbox_event");
            assertThat(jdbc.queryForObject("SELECT count(*) FROM outbox_event WHERE id = ANY(?) AND published_at IS NOT NULL",
                    Integer.class, (Object) batch.toArray(Long[]::new))).isEqualTo(3);
        }
    }

    /** {@code count} new unpublished events of the operation (its first): their ids. */
    private static List<Long> events(JdbcTemplate jdbc, long operation, int count) {
        return jdbc.queryForList("""
                INSERT INTO outbox_event (operation_ref, operation_id, subject_id, sequence, type, status)
                SELECT o.id, o.operation_id, o.subject_id, n, 'OperationAccepted', 'ACCEPTED'
                FROM operation o, generate_series(1, ?) AS n WHERE o.id = ?
                RETURNING id
                """, Long.class, count, operation);
    }
}
