package dev.opledger.effect.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.claim.ClaimService;
import dev.opledger.claim.LifecycleService;
import dev.opledger.classification.RepeatClass;
import dev.opledger.effect.Effect;
import dev.opledger.mcp.ToolRef;
import dev.opledger.operation.Fence;
import dev.opledger.operation.SubjectId;
import dev.opledger.outbox.OutboxTrace;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.Operations;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * A step's first STARTED is one server-side prepared statement on a connection, whether the
 * step has an idempotency key or not (issue 13): an untyped null made PgJDBC prepare it again,
 * and PostgreSQL parse and plan it again, whenever a keyed step and an unkeyed one followed each
 * other on a connection, as a checkout's capture and receipt do.
 */
@NodeIntegrationTest
class EffectRecordsPreparedIT {

    private static final int STEPS = 16;

    @Autowired
    ClaimService claims;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    DataSource dataSource;

    @Autowired
    JsonMapper json;

    @Test
    void keyedAndUnkeyedFirstStartsShareOnePreparedStatement() throws Exception {
        var subject = new SubjectId("effect-prepared-" + UUID.randomUUID());
        Fence fence = Operations.lease(lifecycle, "prepared-node",
                Operations.claim(claims, subject, 1, "checkout", "{}").getFirst()).fence();
        // a physical connection of its own: a pooled one may already hold this statement,
        // prepared and counted by the tests that ran before this one in the same context
        var pool = dataSource.unwrap(HikariDataSource.class);
        try (Connection connection = DriverManager.getConnection(pool.getJdbcUrl(), pool.getUsername(), pool.getPassword())) {
            var jdbc = new JdbcTemplate(new SingleConnectionDataSource(connection, true));
            var records = new EffectRecords(jdbc, json, OutboxTrace.none());
            for (int step = 0; step < STEPS; step++) {
                String stepKey = "step-" + step;
                var effect = new Effect(fence, stepKey, new ToolRef("shop", "send_message"), Map.of(), null);
                String key = step % 2 == 0 ? fence.operationId() + ":" + stepKey : null;
                var started = records.startFirst(effect, RepeatClass.KEYED, key, Map.of(),
                        ArgumentDigest.of(json, Map.of()));
                assertThat(started.started()).isTrue();
            }
            // PgJDBC runs a statement unnamed for its first 4 executions on a connection (its
            // prepareThreshold, 5), then as one named statement while its parameters' types stay
            // the same: every later execution is counted on that statement
            Long executions = jdbc.queryForObject("SELECT sum(generic_plans + custom_plans) FROM pg_prepared_statements "
                    + "WHERE statement LIKE '%, prior AS (%' AND statement LIKE '%INSERT INTO effect_record%'", Long.class);
            assertThat(executions).isEqualTo(STEPS - 4L);
        }
    }
}
