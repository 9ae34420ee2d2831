package dev.opledger.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.node.database.LocatedDatabase;
import dev.opledger.testing.ApiClient;
import dev.opledger.testing.TestTokens;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * {@code checkout} operations of one subject, submitted through a node's API (the node runs with
 * {@code opledger.attest.mode=optional}: execution is what is tested, not App Attest) and read
 * back from the nodes' database.
 */
final class Checkouts {

    private final LocatedDatabase database;
    private final String subject = "checkout-" + UUID.randomUUID();
    private final String token = TestTokens.mint(TestTokens.LOCAL_SECRET, claims -> claims.subject(subject));

    Checkouts(LocatedDatabase database) {
        this.database = database;
    }

    String subject() {
        return subject;
    }

    /** The subject's bearer token (local profile), for calls over MCP. */
    String token() {
        return token;
    }

    /** The contract's minimal arguments: one espresso for {@code amount} EUR, a receipt to ann. */
    static String arguments(String amount) {
        return "{\"sku\":\"SKU-ESPRESSO\",\"quantity\":1,\"amount\":" + amount
                + ",\"currency\":\"EUR\",\"recipient\":\"ann@example.com\"}";
    }

    /** Submits one checkout with these arguments; returns its new operationId once the node accepted it (202). */
    String submit(ChildNode node, String arguments) {
        String operationId = UUID.randomUUID().toString();
        var response = node.api().submit(token, operationId, ApiClient.command("checkout", arguments));
        assertThat(response.statusCode()).as("submitting %s: %s", arguments, response.body()).isEqualTo(202);
        return operationId;
    }

    /** {@code POST /v1/operations/{operationId}/cancel} on a node, as the app would. */
    java.net.http.HttpResponse<String> cancel(ChildNode node, String operationId) {
        return node.api().cancel(token, operationId);
    }

    /** The operation's cancel record: {@code resolution}, {@code acknowledged_by}, {@code resolution_step}; empty without one. */
    java.util.Map<String, Object> cancelRecord(String operationId) throws SQLException {
        try (Connection db = E2eDatabase.connect(database);
                var query = db.prepareStatement("SELECT c.resolution, c.acknowledged_by, c.resolution_step "
                        + "FROM operation_cancel c JOIN operation o ON o.id = c.operation_ref "
                        + "WHERE o.subject_id = ? AND o.operation_id = ?::uuid")) {
            query.setString(1, subject);
            query.setString(2, operationId);
            try (var rows = query.executeQuery()) {
                var record = new java.util.LinkedHashMap<String, Object>();
                if (rows.next()) {
                    for (String column : List.of("resolution", "acknowledged_by", "resolution_step")) {
                        record.put(column, rows.getString(column));
                    }
                }
                return record;
            }
        }
    }

    /** The operation's events on the outbox from its {@code CancelRequested} on, {@code type[:tool@step]}, in order. */
    List<String> eventsFromTheCancel(String operationId) throws SQLException {
        try (Connection db = E2eDatabase.connect(database)) {
            return E2eQueries.list(db, "SELECT type || coalesce(':' || tool || '@' || step_key, '') FROM outbox_event "
                    + "WHERE operation_id = ?::uuid AND sequence >= (SELECT sequence FROM outbox_event "
                    + "WHERE operation_id = ?::uuid AND type = 'CancelRequested') ORDER BY sequence", operationId,
                    operationId).stream().map(String.class::cast).toList();
        }
    }

    /** The status the API shows the subject. */
    String status(ChildNode node, String operationId) {
        var response = node.api().get(token, "/v1/operations/" + operationId);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return ApiClient.json(response).get("status").asString();
    }

    long ref(String operationId) throws SQLException {
        return single("SELECT id FROM operation WHERE subject_id = ? AND operation_id = ?::uuid", Long.class,
                subject, operationId);
    }

    /** Why the operation is in its status (a review's reason, a failure), or null. */
    String statusReason(String operationId) throws SQLException {
        return single("SELECT status_reason FROM operation WHERE subject_id = ? AND operation_id = ?::uuid",
                String.class, subject, operationId);
    }

    /** The status of the node's effect record of a step (STARTED, SUCCEEDED, FAILED), or null without one. */
    String effectRecord(String operationId, String stepKey) throws SQLException {
        return single("SELECT r.status FROM effect_record r JOIN operation o ON o.id = r.operation_ref "
                + "WHERE o.subject_id = ? AND o.operation_id = ?::uuid AND r.step_key = ?", String.class, subject,
                operationId, stepKey);
    }

    /** The downstream task's id in the node's effect record of a step, or null without one. */
    String downstreamTask(String operationId, String stepKey) throws SQLException {
        return single("SELECT r.task_id FROM effect_record r JOIN operation o ON o.id = r.operation_ref "
                + "WHERE o.subject_id = ? AND o.operation_id = ?::uuid AND r.step_key = ?", String.class, subject,
                operationId, stepKey);
    }

    /** The operation's transitions in order, each {@code "<from> -> <to> by <node>: <reason>"}. */
    List<String> transitions(String operationId) throws SQLException {
        try (Connection db = E2eDatabase.connect(database)) {
            return E2eQueries.list(db, "SELECT coalesce(t.from_status, '-') || ' -> ' || t.to_status || ' by ' "
                    + "|| coalesce(t.node_id, '-') || coalesce(': ' || t.reason, '') FROM operation_transition t "
                    + "JOIN operation o ON o.id = t.operation_ref WHERE o.subject_id = ? AND o.operation_id = ?::uuid "
                    + "ORDER BY t.id", subject, operationId).stream().map(String.class::cast).toList();
        }
    }

    /** How many of the subject's operations are in this status. */
    long count(String status) throws SQLException {
        return single("SELECT count(*) FROM operation WHERE subject_id = ? AND status = ?", Long.class, subject, status);
    }

    /** How many of the subject's operations a node's worker holds now (RUNNING, leased by it). */
    long heldBy(ChildNode node) throws SQLException {
        return single("SELECT count(*) FROM operation WHERE subject_id = ? AND status = 'RUNNING' AND lease_owner LIKE ?",
                Long.class, subject, node.workerIdPrefix() + "%");
    }

    /** How many of the subject's operations a node's worker ended in this status. */
    long finishedBy(ChildNode node, String status) throws SQLException {
        return single("SELECT count(*) FROM operation_transition t JOIN operation o ON o.id = t.operation_ref "
                + "WHERE o.subject_id = ? AND t.from_status = 'RUNNING' AND t.to_status = ? AND t.node_id LIKE ?",
                Long.class, subject, status, node.workerIdPrefix() + "%");
    }

    /** The subject's operations in this status. */
    Set<String> inStatus(String status) throws SQLException {
        try (Connection db = E2eDatabase.connect(database)) {
            return strings(E2eQueries.list(db, "SELECT operation_id::text FROM operation WHERE subject_id = ? AND status = ?",
                    subject, status));
        }
    }

    /** The subject's operations {@code to} took over from {@code from} when from's lease expired. */
    Set<String> takenOver(ChildNode from, ChildNode to) throws SQLException {
        try (Connection db = E2eDatabase.connect(database)) {
            return strings(E2eQueries.list(db, "SELECT o.operation_id::text FROM operation_transition t "
                    + "JOIN operation o ON o.id = t.operation_ref WHERE o.subject_id = ? AND t.from_status = 'RUNNING' "
                    + "AND t.to_status = 'RUNNING' AND t.node_id LIKE ? AND t.reason LIKE ?", subject,
                    to.workerIdPrefix() + "%", "taken over: the lease of " + from.workerIdPrefix() + "%"));
        }
    }

    private static Set<String> strings(List<Object> values) {
        return values.stream().map(String.class::cast).collect(Collectors.toSet());
    }

    private <T> T single(String sql, Class<T> type, Object... parameters) throws SQLException {
        try (Connection db = E2eDatabase.connect(database)) {
            List<Object> values = E2eQueries.list(db, sql, parameters);
            return values.isEmpty() ? null : type.cast(values.getFirst());
        }
    }
}
