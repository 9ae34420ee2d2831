package dev.opledger.feed.internal;

import static dev.opledger.operation.SqlStatement.text;

import dev.opledger.feed.FeedEntry;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** The feed's entries, one per event (its own dedup record). */
@Repository
public class FeedEntries {

    /** An event's entry, unless the event has one already: the entry is the feed's dedup record (unique by eventId). */
    private static final String APPLY = """
            INSERT INTO activity_feed_entry (subject_id, operation_id, event_id, sequence, type, status, tool,
                                             step_key, occurred_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (event_id) DO NOTHING
            """;

    /**
     * The events of a whole poll, one array per column: each event once (a redelivered event may
     * come twice in a poll), numbered in the poll's order. The first {@code %s} says which of them
     * to insert, the second what a conflict on the unique key does.
     */
    private static final String INCOMING = """
            WITH incoming AS (
              SELECT DISTINCT ON (event_id) *
              FROM unnest(?::uuid[], ?::text[], ?::uuid[], ?::integer[], ?::text[], ?::text[], ?::text[], ?::text[],
                          ?::text[]::timestamptz[])
                   WITH ORDINALITY AS e(event_id, subject_id, operation_id, sequence, type, status, tool, step_key,
                                        occurred_at, arrival)
              ORDER BY event_id, arrival
            )
            INSERT INTO activity_feed_entry (subject_id, operation_id, event_id, sequence, type, status, tool,
                                             step_key, occurred_at)
            SELECT subject_id, operation_id, event_id, sequence, type, status, tool, step_key, occurred_at
            FROM incoming i %s ORDER BY arrival
            %s
            """;

    /**
     * {@link #APPLY} for a whole poll in one statement, leaving out the events that have their
     * entry: a plain insert, not {@code ON CONFLICT}, whose speculative insertion writes a
     * confirmation record per entry to the WAL (9 a checkout, issue 13). The look-up is a scalar
     * subquery, one probe of the key per event: as {@code NOT EXISTS} the planner may make it an
     * anti-join that reads the whole table, as it did for a statement planned while the table was
     * new (one benchmark run read 8,733 entries a checkout that way). An entry committed by
     * another consumer between this statement's look-up and its insert (two nodes' consumers
     * during a rebalance) makes it fail on the unique key; {@link #APPLY_ALL_RACING} then applies
     * the poll.
     */
    static final String APPLY_ALL = INCOMING.formatted(
            "WHERE (SELECT true FROM activity_feed_entry a WHERE a.event_id = i.event_id) IS NULL", "");

    /** {@link #APPLY_ALL} whatever other consumers commit meanwhile: the unique key arbitrates. */
    private static final String APPLY_ALL_RACING = INCOMING.formatted("", "ON CONFLICT (event_id) DO NOTHING");

    private final JdbcTemplate jdbc;

    FeedEntries(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The event's entry: false (and nothing written) when the event has its entry already. */
    boolean apply(FeedEvent event) {
        return jdbc.update(APPLY, arguments(event)) == 1;
    }

    /**
     * Every event's entry as {@link #apply} writes it, in one statement: one commit for a poll's
     * records instead of one each, and one statement instead of one each (issue 13); all or none
     * of them when it fails. Returns how many entries were written.
     */
    int applyAll(List<FeedEvent> events) {
        try {
            return applyAll(APPLY_ALL, events);
        } catch (DuplicateKeyException e) {
            // another consumer wrote one of these entries after the look-up: nothing of this statement was
            return applyAll(APPLY_ALL_RACING, events);
        }
    }

    private int applyAll(String sql, List<FeedEvent> events) {
        return jdbc.update(connection -> {
            PreparedStatement statement = connection.prepareStatement(sql);
            statement.setArray(1, connection.createArrayOf("uuid", column(events, FeedEvent::eventId)));
            statement.setArray(2, connection.createArrayOf("text", column(events, FeedEvent::subjectId)));
            statement.setArray(3, connection.createArrayOf("uuid", column(events, FeedEvent::operationId)));
            statement.setArray(4, connection.createArrayOf("integer", column(events, FeedEvent::sequence)));
            statement.setArray(5, connection.createArrayOf("text", column(events, FeedEvent::type)));
            statement.setArray(6, connection.createArrayOf("text", column(events, FeedEvent::status)));
            statement.setArray(7, connection.createArrayOf("text", column(events, FeedEvent::tool)));
            statement.setArray(8, connection.createArrayOf("text", column(events, FeedEvent::stepKey)));
            // as text, which PostgreSQL reads as an instant whatever the session's time zone
            statement.setArray(9, connection.createArrayOf("text", column(events, event -> event.occurredAt().toString())));
            return statement;
        });
    }

    private static Object[] column(List<FeedEvent> events, Function<FeedEvent, @Nullable Object> value) {
        return events.stream().map(value).toArray();
    }

    private static Object[] arguments(FeedEvent event) {
        // tool and step key are null for an operation's own events and set for a tool's: bound as
        // varchar either way, or PgJDBC prepares the statement again whenever the kind of event
        // changes from the last one on the connection, and PostgreSQL plans it again (issue 13)
        return new Object[] {event.subjectId(), event.operationId(), event.eventId(), event.sequence(),
                event.type(), event.status(), text(event.tool()), text(event.stepKey()),
                Timestamp.from(event.occurredAt())};
    }

    public List<FeedEntry> recent(SubjectId subject, int limit) {
        return jdbc.query("SELECT operation_id, sequence, type, status, tool, step_key, occurred_at FROM activity_feed_entry "
                        + "WHERE subject_id = ? ORDER BY occurred_at DESC, id DESC LIMIT ?",
                (row, n) -> new FeedEntry(new OperationId(row.getObject(1, UUID.class)), row.getInt(2), row.getString(3),
                        row.getString(4), row.getString(5), row.getString(6), row.getTimestamp(7).toInstant()),
                subject.value(), limit);
    }
}
