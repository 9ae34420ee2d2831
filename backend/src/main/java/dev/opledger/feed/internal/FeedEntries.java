package dev.opledger.feed.internal;

import dev.opledger.feed.FeedEntry;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import java.sql.Timestamp;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** The feed's tables: its dedup record and its entries. */
@Repository
public class FeedEntries {

    private final JdbcTemplate jdbc;

    FeedEntries(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * The event's entry, in one statement with the consumer's record of having applied it:
     * false (and nothing written) when {@code consumer} applied this eventId before.
     */
    boolean apply(String consumer, FeedEvent event) {
        return jdbc.update("""
                WITH first AS (
                  INSERT INTO consumed_event (consumer, event_id) VALUES (?, ?) ON CONFLICT DO NOTHING RETURNING event_id
                )
                INSERT INTO activity_feed_entry (subject_id, operation_id, event_id, sequence, type, status, tool,
                                                 step_key, occurred_at)
                SELECT ?, ?, event_id, ?, ?, ?, ?, ?, ? FROM first
                """, consumer, event.eventId(), event.subjectId(), event.operationId(), event.sequence(), event.type(),
                event.status(), event.tool(), event.stepKey(), Timestamp.from(event.occurredAt())) == 1;
    }

    public List<FeedEntry> recent(SubjectId subject, int limit) {
        return jdbc.query("SELECT operation_id, sequence, type, status, tool, step_key, occurred_at FROM activity_feed_entry "
                        + "WHERE subject_id = ? ORDER BY occurred_at DESC, id DESC LIMIT ?",
                (row, n) -> new FeedEntry(new OperationId(row.getObject(1, UUID.class)), row.getInt(2), row.getString(3),
                        row.getString(4), row.getString(5), row.getString(6), row.getTimestamp(7).toInstant()),
                subject.value(), limit);
    }
}
