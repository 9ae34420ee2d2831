package dev.opledger.claim.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.claim.AttemptContext;
import dev.opledger.claim.ClaimOutcome;
import dev.opledger.claim.ClaimRequest;
import dev.opledger.operation.Command;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.outbox.OutboxTrace;
import dev.opledger.testing.Checkout;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The race that the claim's arbiter resolves by waiting: two claims of the same operationId that
 * both pass the arbiter's check before either has written its index entry. The later insert then
 * meets the first's entry, waits for it to commit and skips, and its statement, whose snapshot
 * predates that commit, finds no row; the claim must run again and read the row as what it is:
 * its own operation (a replay) for the same subject, another's ({@code OperationIdTaken}, nothing
 * recorded) for a different one.
 *
 * <p>The window is microseconds in production. Here it is held open in a schema of its own: the
 * claim tables without their data, plus an index evaluated before the arbiter's that sleeps for
 * this test's subjects, so both claims pass the arbiter's check before either writes its entry.
 */
@NodeIntegrationTest
class ClaimStatementRaceIT {

    private static final String SCHEMA = "claim_own_race";

    @Autowired
    JdbcTemplate shared;

    JdbcTemplate jdbc;

    @BeforeEach
    void createSchemaWithAWindowBeforeTheArbiter() {
        shared.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
        shared.execute("CREATE SCHEMA " + SCHEMA);
        String like = " INCLUDING DEFAULTS INCLUDING IDENTITY INCLUDING CONSTRAINTS";
        shared.execute("CREATE TABLE " + SCHEMA + ".operation (LIKE public.operation" + like + ")");
        shared.execute("CREATE TABLE " + SCHEMA + ".operation_attempt (LIKE public.operation_attempt" + like + ")");
        shared.execute("CREATE TABLE " + SCHEMA + ".key_reuse_conflict (LIKE public.key_reuse_conflict" + like + ")");
        shared.execute("CREATE TABLE " + SCHEMA + ".operation_transition (LIKE public.operation_transition" + like + ")");
        shared.execute("CREATE TABLE " + SCHEMA + ".outbox_event (LIKE public.outbox_event" + like + ")");
        // indexes are updated in the order they were created: the sleep, then the arbiter (the operationId index)
        shared.execute("CREATE FUNCTION " + SCHEMA + ".after_a_pause(subject text) RETURNS text LANGUAGE plpgsql "
                + "IMMUTABLE AS $$ BEGIN IF subject LIKE 'own-race-%' THEN PERFORM pg_sleep(1); END IF; RETURN subject; END $$");
        shared.execute("CREATE INDEX operation_pause_ix ON " + SCHEMA + ".operation (" + SCHEMA + ".after_a_pause(subject_id))");
        shared.execute("CREATE UNIQUE INDEX operation_operation_id_uk ON " + SCHEMA + ".operation (operation_id)");
        var database = TestDatabase.shared();
        var dataSource = new DriverManagerDataSource(database.url(), database.username(), database.password());
        dataSource.setSchema(SCHEMA);
        jdbc = new JdbcTemplate(dataSource);
    }

    @AfterEach
    void dropSchema() {
        shared.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
    }

    @Test
    void aClaimThatLosesItsOwnRaceOnTheArbiterIsAReplay() throws Exception {
        var subject = new SubjectId("own-race-" + UUID.randomUUID());
        var operationId = OperationId.random();

        List<ClaimOutcome> outcomes = race(operationId, subject, subject);

        assertThat(outcomes).extracting(outcome -> outcome.getClass().getSimpleName())
                .containsExactlyInAnyOrder("Claimed", "Replayed");
        assertThat(attemptOutcomes(operationId)).containsExactly("CLAIMED", "REPLAYED");
        // the claim that waited on the arbiter and ran again as a replay left no event nor transition
        assertOneAcceptedOperation(operationId, subject);
    }

    @Test
    void aClaimThatLosesTheRaceToAnotherSubjectIsRefusedAndRecordsNothing() throws Exception {
        var first = new SubjectId("own-race-" + UUID.randomUUID());
        var second = new SubjectId("own-race-" + UUID.randomUUID());
        var operationId = OperationId.random();

        List<ClaimOutcome> outcomes = race(operationId, first, second);

        assertThat(outcomes).extracting(outcome -> outcome.getClass().getSimpleName())
                .containsExactlyInAnyOrder("Claimed", "OperationIdTaken");
        SubjectId winner = outcomes.getFirst() instanceof ClaimOutcome.Claimed ? first : second;
        // the refused claim wrote no attempt and no key-reuse conflict on the other subject's operation
        assertThat(attemptOutcomes(operationId)).containsExactly("CLAIMED");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM key_reuse_conflict", Long.class)).isZero();
        assertOneAcceptedOperation(operationId, winner);
    }

    /** Two claims of {@code operationId}, one per subject given, released together; their outcomes in that order. */
    private List<ClaimOutcome> race(OperationId operationId, SubjectId... subjects) throws Exception {
        var statement = new ClaimStatement(jdbc, OutboxTrace.none());
        var command = Command.parse(Checkout.command().getBytes(StandardCharsets.UTF_8));
        var start = new CountDownLatch(1);
        List<ClaimOutcome> outcomes = new ArrayList<>();
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<ClaimOutcome>> futures = new ArrayList<>();
            for (SubjectId subject : subjects) {
                futures.add(threads.submit(() -> {
                    start.await();
                    return statement.execute(new ClaimRequest(subject, operationId, command,
                            AttemptContext.unattested(UUID.randomUUID(), "own-race", null)));
                }));
            }
            start.countDown();
            for (var future : futures) {
                outcomes.add(future.get());
            }
        }
        return outcomes;
    }

    private List<String> attemptOutcomes(OperationId operationId) {
        return jdbc.queryForList("SELECT a.outcome FROM operation_attempt a JOIN operation o ON o.id = a.operation_ref "
                + "WHERE o.operation_id = ? ORDER BY a.id", String.class, operationId.value());
    }

    private void assertOneAcceptedOperation(OperationId operationId, SubjectId holder) {
        assertThat(jdbc.queryForList("SELECT subject_id FROM operation WHERE operation_id = ?", String.class,
                operationId.value())).containsExactly(holder.value());
        assertThat(jdbc.queryForList("SELECT e.sequence || ' ' || e.type FROM outbox_event e JOIN operation o "
                + "ON o.id = e.operation_ref WHERE o.operation_id = ?", String.class, operationId.value()))
                .containsExactly("1 OperationAccepted");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM operation_transition t JOIN operation o ON o.id = t.operation_ref "
                + "WHERE o.operation_id = ?", Long.class, operationId.value())).isEqualTo(1);
    }
}
