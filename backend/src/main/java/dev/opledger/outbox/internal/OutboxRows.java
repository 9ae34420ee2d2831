package dev.opledger.outbox.internal;

import java.sql.Array;
import java.time.Duration;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** The relay's reads and writes of outbox_event. */
@Repository
class OutboxRows {

    private final JdbcTemplate jdbc;

    OutboxRows(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Up to {@code max} unpublished rows, locked until the caller's transaction ends, sorted by
     * operation and sequence. Within an operation ids follow sequences (a row is inserted while
     * its operation's row is locked), and rows are found by {@code published_at IS NULL}, not by
     * an id watermark, so a row that commits after a later id was published is not skipped.
     */
    List<OutboxEvent> lockUnpublished(int max) {
        return jdbc.query("""
                SELECT id, operation_ref, event_id, operation_id, subject_id, sequence, type, status, tool, step_key,
                       occurred_at, payload::text AS payload, trace_context
                FROM outbox_event WHERE published_at IS NULL ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED
                """, (row, n) -> new OutboxEvent(row.getLong("id"), row.getLong("operation_ref"),
                        row.getObject("event_id", UUID.class), row.getObject("operation_id", UUID.class),
                        row.getString("subject_id"), row.getInt("sequence"), row.getString("type"), row.getString("status"),
                        row.getString("tool"), row.getString("step_key"), row.getTimestamp("occurred_at").toInstant(),
                        row.getString("payload"), row.getString("trace_context")), max)
                .stream()
                .sorted(Comparator.comparingLong(OutboxEvent::operationRef).thenComparingInt(OutboxEvent::sequence))
                .toList();
    }

    /**
     * Marks rows published, only for the relay elected in {@code epoch}: a relay that lost the
     * election (another node's epoch is higher) marks nothing. Returns the rows marked.
     */
    int markPublished(Collection<Long> ids, long epoch) {
        return jdbc.execute((ConnectionCallback<Integer>) connection -> {
            Array array = connection.createArrayOf("bigint", ids.toArray());
            try (var statement = connection.prepareStatement("UPDATE outbox_event SET published_at = now() "
                    + "WHERE id = ANY(?) AND published_at IS NULL "
                    + "AND EXISTS (SELECT 1 FROM outbox_relay WHERE name = 'relay' AND epoch = ?)")) {
                statement.setArray(1, array);
                statement.setLong(2, epoch);
                return statement.executeUpdate();
            }
        });
    }

    /** Deletes up to {@code max} rows published more than {@code retention} ago; returns how many. */
    int purge(Duration retention, int max) {
        return jdbc.update("DELETE FROM outbox_event WHERE id IN (SELECT id FROM outbox_event "
                + "WHERE published_at < now() - ?::interval ORDER BY published_at LIMIT ?)",
                retention.toMillis() + " milliseconds", max);
    }

    /** Whether any row is unpublished: the idle relay's poll, read-only, on the unpublished rows' index. */
    boolean anyUnpublished() {
        return Boolean.TRUE.equals(jdbc.queryForObject(
                "SELECT EXISTS (SELECT 1 FROM outbox_event WHERE published_at IS NULL)", Boolean.class));
    }

    long backlog() {
        Long count = jdbc.queryForObject("SELECT count(*) FROM outbox_event WHERE published_at IS NULL", Long.class);
        return count == null ? 0 : count;
    }

    /** Seconds since the oldest unpublished event occurred; 0 with none. */
    double lagSeconds() {
        Double lag = jdbc.queryForObject("SELECT coalesce(extract(epoch FROM now() - min(occurred_at)), 0)::float8 "
                + "FROM outbox_event WHERE published_at IS NULL", Double.class);
        return lag == null ? 0 : lag;
    }
}
