package dev.opledger.outbox.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.testing.LedgerOfItsOwn;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The changeset that moves the relay to a watermark (outbox-003), on a ledger that already has
 * events: the watermark starts below the lowest unpublished row (with a margin, for rows still
 * being written by nodes of the previous version), the rows published before are recorded as
 * publications so the purge finds them by age, and nothing is marked or lost.
 */
class OutboxWatermarkMigrationIT {

    @Test
    void aLedgerWithEventsKeepsItsUnpublishedRowsAboveTheWatermarkAndItsPublishedOnesPurgeable() throws Exception {
        try (var ledger = LedgerOfItsOwn.create().migrateUpTo("outbox-003-watermark")) {
            JdbcTemplate jdbc = ledger.jdbc();
            long operation = ledger.operation("migration");
            // 30,000 events: the first 20,000 published two days ago and yesterday, the rest not yet
            jdbc.update("""
                    INSERT INTO outbox_event (operation_ref, operation_id, subject_id, sequence, type, status, published_at)
                    SELECT ?, (SELECT operation_id FROM operation), 'migration', n, 'OperationAccepted', 'ACCEPTED',
                           CASE WHEN n <= 10000 THEN now() - interval '2 days' WHEN n <= 20000 THEN now() - interval '1 day' END
                    FROM generate_series(1, 30000) AS n
                    """, operation);
            long firstUnpublished = jdbc.queryForObject("SELECT min(id) FROM outbox_event WHERE published_at IS NULL", Long.class);

            ledger.migrate();

            long watermark = jdbc.queryForObject("SELECT published_below FROM outbox_relay WHERE name = 'relay'", Long.class);
            assertThat(watermark).isEqualTo(firstUnpublished - 10000);
            assertThat(jdbc.queryForObject("SELECT count(*) FROM outbox_event WHERE id >= ? AND published_at IS NULL",
                    Long.class, watermark)).as("every unpublished row is at or above the watermark").isEqualTo(10000);
            assertThat(jdbc.queryForObject("SELECT count(*) FROM outbox_event WHERE published_at IS NOT NULL", Long.class))
                    .isEqualTo(20000);
            // one publication per hour of the rows published before, covering all of them
            assertThat(jdbc.queryForList("SELECT events FROM outbox_publication ORDER BY first_id", Integer.class))
                    .containsExactly(10000, 10000);
            assertThat(jdbc.queryForObject("""
                    SELECT count(*) FROM outbox_event e WHERE published_at IS NOT NULL AND NOT EXISTS (
                      SELECT 1 FROM outbox_publication p WHERE e.id BETWEEN p.first_id AND p.last_id
                        AND p.published_at >= e.published_at)
                    """, Long.class)).as("published rows no publication covers").isZero();
        }
    }
}
