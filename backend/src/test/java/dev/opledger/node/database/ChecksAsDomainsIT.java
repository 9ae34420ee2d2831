package dev.opledger.node.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.testing.NodeIntegrationTest;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The rules on the columns a checkout writes are domains, not table CHECK constraints (changesets
 * claim-015, effect-006, graph-002, outbox-005): PostgreSQL reads and compiles a table's CHECK
 * constraints again for every statement that writes a row of it, a domain's once per connection
 * (issue 13, docs/benchmarks.md). Each rule still refuses what it refused, under the same name.
 */
@NodeIntegrationTest
class ChecksAsDomainsIT {

    /** The tables a checkout inserts into or updates, from the claim to the feed. */
    private static final List<String> PATH_TABLES = List.of("operation", "operation_attempt", "operation_transition",
            "effect_record", "graph_checkpoint", "outbox_event", "outbox_relay", "activity_feed_entry");

    record Rule(String table, String column, String domain, String constraint, String accepted, String refused) {
    }

    static List<Rule> rules() {
        return List.of(
                new Rule("operation", "status", "operation_status", "operation_status_ck", "NEEDS_REVIEW", "DONE"),
                new Rule("operation", "failure_kind", "operation_failure_kind", "operation_failure_kind_ck", "BROKE_DOWN",
                        "outcome"),
                new Rule("operation", "payload_hash", "operation_payload_hash", "operation_payload_hash_ck",
                        "\\x" + "ab".repeat(32), "\\x" + "ab".repeat(31)),
                new Rule("operation", "command_type", "operation_command_type", "operation_command_type_ck", "checkout", ""),
                new Rule("operation", "subject_id", "operation_subject_id", "operation_subject_length_ck", "s".repeat(255),
                        "s".repeat(256)),
                new Rule("operation_attempt", "outcome", "operation_attempt_outcome", "operation_attempt_outcome_ck",
                        "REPLAYED", "CONFLICT"),
                new Rule("operation_attempt", "channel", "operation_attempt_channel", "operation_attempt_channel_ck", "MCP",
                        "GRPC"),
                new Rule("effect_record", "status", "effect_status", "effect_record_status_ck", "FAILED", "RUNNING"),
                new Rule("effect_record", "repeat_class", "effect_repeat_class", "effect_record_class_ck", "CHECK_THEN_WRITE",
                        "ONCE"),
                new Rule("effect_record", "resolution", "effect_resolution", "effect_record_resolution_ck", "GIVEN_UP",
                        "LOST"),
                new Rule("effect_record", "argument_digest", "effect_argument_digest", "effect_record_argument_digest_ck",
                        "0f".repeat(32), "0F".repeat(32)),
                new Rule("graph_checkpoint", "seq", "graph_checkpoint_seq", "graph_checkpoint_seq_ck", "1", "0"),
                new Rule("graph_checkpoint", "state", "graph_checkpoint_state", "graph_checkpoint_state_ck", "{}", "[]"),
                new Rule("outbox_event", "sequence", "outbox_event_sequence", "outbox_event_sequence_ck", "1", "0"));
    }

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void theTablesACheckoutWritesHaveNoTableCheckConstraint() {
        List<String> checks = jdbc.queryForList("SELECT conrelid::regclass || '.' || conname FROM pg_constraint "
                + "WHERE contype = 'c' AND conrelid::regclass::text = ANY (?)", String.class,
                (Object) PATH_TABLES.toArray(String[]::new));

        assertThat(checks).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("rules")
    void eachColumnIsOfItsRulesDomain(Rule rule) {
        String domain = jdbc.queryForObject("SELECT domain_name FROM information_schema.columns "
                + "WHERE table_schema = current_schema() AND table_name = ? AND column_name = ?", String.class,
                rule.table(), rule.column());

        assertThat(domain).isEqualTo(rule.domain());
    }

    @ParameterizedTest
    @MethodSource("rules")
    void eachRuleAcceptsAndRefusesAsItsCheckDidUnderItsName(Rule rule) {
        assertThat(jdbc.queryForObject("SELECT (?::" + rule.domain() + ") IS NOT NULL", Boolean.class, rule.accepted()))
                .isTrue();

        assertThatThrownBy(() -> jdbc.queryForObject("SELECT ?::" + rule.domain(), String.class, rule.refused()))
                .isInstanceOf(DataAccessException.class)
                .satisfies(e -> {
                    var cause = (SQLException) ((DataAccessException) e).getMostSpecificCause();
                    assertThat(cause.getSQLState()).isEqualTo("23514"); // check_violation, as the table's CHECK raised
                    assertThat(cause.getMessage()).contains(rule.constraint());
                });
    }

    @Test
    void anOperationRowIsRefusedAStatusOutsideTheRuleAndKeepsItsOwn() {
        UUID operationId = UUID.randomUUID();
        jdbc.update("INSERT INTO operation (subject_id, operation_id, payload_hash, command_type, command) "
                + "VALUES ('domains', ?, ?, 'checkout', '{}'::jsonb)", operationId, new byte[32]);

        assertThatThrownBy(() -> jdbc.update("UPDATE operation SET status = 'DONE' WHERE operation_id = ?", operationId))
                .isInstanceOf(DataAccessException.class).hasMessageContaining("operation_status_ck");
        assertThatThrownBy(() -> jdbc.update("UPDATE operation SET payload_hash = ? WHERE operation_id = ?",
                new byte[31], operationId)).hasMessageContaining("operation_payload_hash_ck");
        assertThat(jdbc.queryForObject("SELECT status FROM operation WHERE operation_id = ?", String.class, operationId))
                .isEqualTo("ACCEPTED");
    }
}
