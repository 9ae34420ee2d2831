package dev.opledger.feed.internal;

import dev.opledger.feed.FeedEntry;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.SqlParameterValue;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** The feed's tables: its dedup record and its entries. */
@Repository
public class FeedEntries {

    private static final String APPLY = """
            WITH first AS (
              INSERT INTO consumed_event (consumer, event_id) VALUES (?, ?) ON CONFLICT DO NOTHING RETURNING event_id
            )
            INSERT INTO activity_feed_entry (subject_id, operation_id, event_id, sequence, type, status, tool,
                                             step_key, occurred_at)
            SELECT ?, ?, event_id, ?, ?, ?, ?, ?, ? FROM first
            """;

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;

    FeedEntries(JdbcTemplate jdbc, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.transactions = new TransactionTemplate(transactions);
    }

    /**
     * The event's entry, in one statement with the consumer's record of having applied it:
     * false (and nothing written) when {@code consumer} applied this eventId before.
     */
    boolean apply(String consumer, FeedEvent event) {
        return jdbc.update(APPLY, arguments(consumer, event)) == 1;
    }

    /**
     * Every event's entry as {@link #apply} writes it, all in one transaction: one commit for a
     * poll's records instead of one each (issue 13); all or none of them when it fails.
     */
    void applyAll(String consumer, List<FeedEvent> events) {
        transactions.executeWithoutResult(status -> jdbc.batchUpdate(APPLY,
                events.stream().map(event -> arguments(consumer, event)).toList()));
    }

    private static Object[] arguments(String consumer, FeedEvent event) {
        // tool and step key are null for an operation's own events and set for a tool's: bound as
        // varchar either way, or PgJDBC prepares the statement again whenever the kind of event
        // changes from the last one on the connection, and PostgreSQL plans it again (issue 13)
        return new Object[] {consumer, event.eventId(), event.subjectId(), event.operationId(), event.sequence(),
                event.type(), event.status(), text(event.tool()), text(event.stepKey()),
                Timestamp.from(event.occurredAt())};
    }

    private static SqlParameterValue text(@Nullable String value) {
        return new SqlParameterValue(Types.VARCHAR, value);
    }

    public List<FeedEntry> recent(SubjectId subject, int limit) {
        return jdbc.query("SELECT operation_id, sequence, type, status, tool, step_key, occurred_at FROM activity_feed_entry "
                        + "WHERE subject_id = ? ORDER BY occurred_at DESC, id DESC LIMIT ?",
                (row, n) -> new FeedEntry(new OperationId(row.getObject(1, UUID.class)), row.getInt(2), row.getString(3),
                        row.getString(4), row.getString(5), row.getString(6), row.getTimestamp(7).toInstant()),
                subject.value(), limit);
    }
}
