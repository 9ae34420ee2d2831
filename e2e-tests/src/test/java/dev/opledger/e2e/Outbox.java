package dev.opledger.e2e;

import dev.opledger.node.database.LocatedDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** What the nodes of one database committed to their outbox, the relay's election and the activity feed. */
final class Outbox {

    private static final String AT_REST = "'SUCCEEDED', 'FAILED', 'NEEDS_REVIEW', 'AWAITING_APPROVAL', 'CANCELLED'";

    /** One outbox row. */
    record Row(String eventId, String operationId, int sequence, boolean published) {
    }

    private final LocatedDatabase database;

    Outbox(LocatedDatabase database) {
        this.database = database;
    }

    /** Rows not yet published. */
    long backlog() throws SQLException {
        return count("SELECT count(*) FROM outbox_event WHERE published_at IS NULL");
    }

    /** Rows published. */
    long published() throws SQLException {
        return count("SELECT count(*) FROM outbox_event WHERE published_at IS NOT NULL");
    }

    /** Operations in a status at rest: the run ended or waits for a person. */
    long operationsAtRest() throws SQLException {
        return count("SELECT count(*) FROM operation WHERE status IN (" + AT_REST + ")");
    }

    /** Of these operations, those at rest. */
    long atRestOf(List<String> operationIds) throws SQLException {
        return count("SELECT count(*) FROM operation WHERE status IN (" + AT_REST + ") AND operation_id = ANY(?::uuid[])",
                array(operationIds));
    }

    /** How many operations are in each status. */
    Map<String, Long> operationsByStatus() throws SQLException {
        try (Connection db = E2eDatabase.connect(database);
                var statement = db.prepareStatement("SELECT status, count(*) FROM operation GROUP BY status");
                var result = statement.executeQuery()) {
            Map<String, Long> statuses = new TreeMap<>();
            while (result.next()) {
                statuses.put(result.getString(1), result.getLong(2));
            }
            return statuses;
        }
    }

    long operations() throws SQLException {
        return count("SELECT count(*) FROM operation");
    }

    /** Published rows of these operations. */
    long publishedOf(List<String> operationIds) throws SQLException {
        return count("SELECT count(*) FROM outbox_event WHERE published_at IS NOT NULL AND operation_id = ANY(?::uuid[])",
                array(operationIds));
    }

    /** Every row, in id order. */
    List<Row> rows() throws SQLException {
        try (Connection db = E2eDatabase.connect(database);
                var statement = db.prepareStatement("SELECT event_id::text, operation_id::text, sequence, "
                        + "published_at IS NOT NULL FROM outbox_event ORDER BY id");
                var result = statement.executeQuery()) {
            List<Row> rows = new ArrayList<>();
            while (result.next()) {
                rows.add(new Row(result.getString(1), result.getString(2), result.getInt(3), result.getBoolean(4)));
            }
            return rows;
        }
    }

    /** The node whose relay holds the election now ({@code <pid>@<host>/<suffix>}), if any holds it. */
    Optional<String> relayHolder() throws SQLException {
        try (Connection db = E2eDatabase.connect(database)) {
            return E2eQueries.list(db, "SELECT holder FROM outbox_relay WHERE name = 'relay' AND expires_at > now()")
                    .stream().map(String.class::cast).findFirst();
        }
    }

    /** The election's epoch: one more with every win. */
    long relayEpoch() throws SQLException {
        return count("SELECT epoch FROM outbox_relay WHERE name = 'relay'");
    }

    /** The events the activity feed recorded as consumed: its entries, unique by eventId (its dedup record). */
    long consumedByTheFeed() throws SQLException {
        return count("SELECT count(DISTINCT event_id) FROM activity_feed_entry");
    }

    /** The feed's entries, one eventId per entry (a redelivered event applied again would show twice). */
    List<String> feedEntryEventIds() throws SQLException {
        try (Connection db = E2eDatabase.connect(database)) {
            return E2eQueries.list(db, "SELECT event_id::text FROM activity_feed_entry ORDER BY id").stream()
                    .map(String.class::cast).toList();
        }
    }

    private static String array(List<String> operationIds) {
        return "{" + String.join(",", operationIds) + "}";
    }

    private long count(String sql, Object... parameters) throws SQLException {
        try (Connection db = E2eDatabase.connect(database)) {
            return E2eQueries.count(db, sql, parameters);
        }
    }
}
