package dev.opledger.outbox.internal;

import dev.opledger.operation.OperationId;
import dev.opledger.outbox.EventType;
import dev.opledger.outbox.OperationEvent;
import dev.opledger.outbox.OperationEvents;
import dev.opledger.outbox.OutboxOverview;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The console's reads of the outbox, each one statement (one snapshot) through the changeset's
 * indexes: an operation's rows by {@code (operation_ref, sequence)}; the overview after it has
 * read the relay's watermark (a lower bound whenever it is read, as it only grows), the backlog
 * from the watermark on by the primary key, the publish rate and the last publication from the
 * relay's record of its batches (outbox_publication, by its time).
 */
@Repository
public class OutboxReader {

    /** The overview in one statement: the watermark ({@link OutboxRows#UNPUBLISHED}, bound as a value). */
    static final String OVERVIEW = """
            WITH unpublished AS (SELECT occurred_at FROM outbox_event WHERE %s)
            SELECT now() AS at,
                   (SELECT count(*) FROM unpublished) AS backlog,
                   (SELECT min(occurred_at) FROM unpublished) AS oldest_unpublished,
                   (SELECT coalesce(sum(events), 0) FROM outbox_publication
                    WHERE published_at > now() - interval '1 minute') AS published_last_minute,
                   (SELECT max(published_at) FROM outbox_publication) AS last_published,
                   r.holder, r.epoch, r.expires_at > now() AS current,
                   CASE WHEN r.expires_at = '-infinity' THEN NULL ELSE r.expires_at END AS expires_at
            FROM (SELECT 1) AS one LEFT JOIN outbox_relay r ON r.name = 'relay' AND r.holder IS NOT NULL
            """.formatted(OutboxRows.UNPUBLISHED);

    private final JdbcTemplate jdbc;
    private final OutboxRows rows;
    private final EventsProperties properties;
    private final ObjectProvider<OutboxRelay> localRelay;

    OutboxReader(JdbcTemplate jdbc, OutboxRows rows, EventsProperties properties, ObjectProvider<OutboxRelay> localRelay) {
        this.jdbc = jdbc;
        this.rows = rows;
        this.properties = properties;
        this.localRelay = localRelay;
    }

    /**
     * The operation's rows with its event count: what the count has and the rows have not was
     * purged (published rows go after the retention, oldest first).
     */
    public Optional<OperationEvents> events(OperationId operationId) {
        List<OperationEvent> events = new ArrayList<>();
        List<Integer> counted = jdbc.query("""
                SELECT o.event_sequence, e.sequence, e.type, e.status, e.tool, e.step_key, e.occurred_at,
                       e.published_at, e.event_id
                FROM operation o LEFT JOIN outbox_event e ON e.operation_ref = o.id
                WHERE o.operation_id = ? ORDER BY e.sequence
                """, (row, n) -> {
                    if (row.getObject("event_id") != null) {
                        events.add(event(row));
                    }
                    return row.getInt("event_sequence");
                }, operationId.value());
        if (counted.isEmpty()) {
            return Optional.empty();
        }
        int purged = Math.max(0, counted.getFirst() - events.size());
        return Optional.of(new OperationEvents(events, purged, properties.retention()));
    }

    public OutboxOverview overview() {
        String local = localRelay.stream().map(OutboxRelay::node).findFirst().orElse(null);
        return jdbc.queryForObject(OVERVIEW, (row, n) -> new OutboxOverview(instant(row, "at"), row.getLong("backlog"),
                        instantOrNull(row, "oldest_unpublished"), row.getLong("published_last_minute"),
                        instantOrNull(row, "last_published"), relay(row), local), rows.publishedBelow());
    }

    private static OperationEvent event(ResultSet row) throws SQLException {
        return new OperationEvent(row.getInt("sequence"), EventType.valueOf(row.getString("type")),
                row.getString("status"), row.getString("tool"), row.getString("step_key"), instant(row, "occurred_at"),
                instantOrNull(row, "published_at"), row.getObject("event_id", UUID.class));
    }

    private static OutboxOverview.@Nullable Relay relay(ResultSet row) throws SQLException {
        String holder = row.getString("holder");
        if (holder == null) {
            return null;
        }
        return new OutboxOverview.Relay(holder, row.getLong("epoch"), instantOrNull(row, "expires_at"),
                row.getBoolean("current"));
    }

    private static Instant instant(ResultSet row, String column) throws SQLException {
        Instant instant = instantOrNull(row, column);
        if (instant == null) {
            throw new SQLException(column + " is null");
        }
        return instant;
    }

    private static @Nullable Instant instantOrNull(ResultSet row, String column) throws SQLException {
        Timestamp timestamp = row.getTimestamp(column);
        return timestamp == null ? null : timestamp.toInstant();
    }
}
