package dev.opledger.claim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.operation.Command;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.Checkout;
import dev.opledger.testing.LedgerRows;
import dev.opledger.testing.LockWaits;
import dev.opledger.testing.NodeIntegrationTest;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Claims that meet a concurrent claim of the same operationId, with the interleaving forced, not
 * hoped for.
 *
 * <p>Regression test for the READ COMMITTED trap of {@code ON CONFLICT DO NOTHING}: when another
 * transaction commits the same key after the claim statement took its snapshot, the statement
 * neither inserts nor sees the row. Without the rerun the attempt would be lost (or reported as
 * an error) although the operation exists.
 *
 * <p>And operationIds are unique across subjects: a claim that waits on another subject's
 * uncommitted claim of the same id is refused once that commits, and takes the id if it rolls back.
 */
@NodeIntegrationTest
class ClaimRaceIT {

    @Autowired
    ClaimService claims;

    @Autowired
    DataSource dataSource;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void anAttemptBlockedBehindAConcurrentClaimSeesItAsAReplay() throws Exception {
        var subject = new SubjectId("race-" + UUID.randomUUID());
        var operationId = OperationId.random();
        var command = checkout();

        CompletableFuture<ClaimOutcome> blocked = claimBehindUncommittedInsert(subject, subject, operationId, command,
                Connection::commit);

        ClaimOutcome outcome = blocked.get(10, TimeUnit.SECONDS);
        assertThat(outcome).isInstanceOfSatisfying(ClaimOutcome.Replayed.class,
                replayed -> assertThat(replayed.operation().payloadHash()).isEqualTo(command.payloadHash()));
        assertThat(new LedgerRows(jdbc).attemptOutcomes(subject.value(), operationId.value()))
                .containsExactly("REPLAYED");
    }

    /** The claim waits on the other subject's uncommitted row in the operationId index, then is refused. */
    @Test
    void aClaimBlockedBehindAnotherSubjectsClaimOfTheSameIdIsRefusedWhenThatCommits() throws Exception {
        var holder = new SubjectId("race-" + UUID.randomUUID());
        var latecomer = new SubjectId("race-" + UUID.randomUUID());
        var operationId = OperationId.random();
        var command = checkout();
        var rows = new LedgerRows(jdbc);
        var before = rows.counts();

        CompletableFuture<ClaimOutcome> blocked = claimBehindUncommittedInsert(holder, latecomer, operationId, command,
                Connection::commit);

        assertThat(blocked.get(10, TimeUnit.SECONDS)).isInstanceOf(ClaimOutcome.OperationIdTaken.class);
        assertThat(rows.operationsWithId(operationId.value())).extracting(row -> row.get("subject_id"))
                .containsExactly(holder.value());
        assertThat(rows.counts()).isEqualTo(new LedgerRows.Counts(before.operations() + 1, before.attempts(),
                before.conflicts()));
    }

    @Test
    void aClaimBlockedBehindAnotherSubjectsClaimOfTheSameIdTakesItWhenThatRollsBack() throws Exception {
        var holder = new SubjectId("race-" + UUID.randomUUID());
        var latecomer = new SubjectId("race-" + UUID.randomUUID());
        var operationId = OperationId.random();
        var command = checkout();

        CompletableFuture<ClaimOutcome> blocked = claimBehindUncommittedInsert(holder, latecomer, operationId, command,
                Connection::rollback);

        assertThat(blocked.get(10, TimeUnit.SECONDS)).isInstanceOf(ClaimOutcome.Claimed.class);
        var rows = new LedgerRows(jdbc);
        assertThat(rows.operationsWithId(operationId.value())).extracting(row -> row.get("subject_id"))
                .containsExactly(latecomer.value());
        assertThat(rows.attemptOutcomes(latecomer.value(), operationId.value())).containsExactly("CLAIMED");
    }

    @Test
    void aClaimOfAnOperationIdAnotherSubjectHoldsIsRefusedAndStoresNothing() {
        var holder = new SubjectId("race-" + UUID.randomUUID());
        var latecomer = new SubjectId("race-" + UUID.randomUUID());
        var operationId = OperationId.random();
        assertThat(claims.claim(request(holder, operationId, checkout()))).isInstanceOf(ClaimOutcome.Claimed.class);
        var rows = new LedgerRows(jdbc);
        var before = rows.counts();

        ClaimOutcome same = claims.claim(request(latecomer, operationId, checkout()));
        ClaimOutcome other = claims.claim(request(latecomer, operationId, Command.parse(
                Checkout.command(9).getBytes(StandardCharsets.UTF_8))));

        assertThat(same).isInstanceOf(ClaimOutcome.OperationIdTaken.class);
        assertThat(other).isInstanceOf(ClaimOutcome.OperationIdTaken.class);
        assertThat(rows.counts()).isEqualTo(before);
        assertThat(claims.find(latecomer, operationId)).isEmpty();
        assertThat(claims.claim(request(holder, operationId, checkout()))).isInstanceOf(ClaimOutcome.Replayed.class);
    }

    private static Command checkout() {
        return Command.parse(Checkout.command().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Inserts the holder's row in a transaction left open, starts the claimant's claim, waits until
     * that claim blocks on the row's lock, then ends the transaction with {@code end}.
     */
    private CompletableFuture<ClaimOutcome> claimBehindUncommittedInsert(SubjectId holder, SubjectId claimant,
            OperationId operationId, Command command, TransactionEnd end) throws Exception {
        try (Connection first = dataSource.getConnection()) {
            first.setAutoCommit(false);
            insertUncommitted(first, holder, operationId, command);

            var blocked = CompletableFuture.supplyAsync(() -> claims.claim(request(claimant, operationId, command)));
            await().atMost(Duration.ofSeconds(10)).until(() -> LockWaits.aStatementWaits(jdbc, "WITH offered AS"));
            end.apply(first);
            return blocked;
        }
    }

    @FunctionalInterface
    private interface TransactionEnd {
        void apply(Connection connection) throws Exception;
    }

    private static void insertUncommitted(Connection connection, SubjectId subject, OperationId operationId,
            Command command) throws Exception {
        try (var insert = connection.prepareStatement("INSERT INTO operation (subject_id, operation_id, payload_hash, "
                + "command_type, command) VALUES (?, ?, ?, ?, ?::jsonb)")) {
            insert.setString(1, subject.value());
            insert.setObject(2, operationId.value());
            insert.setBytes(3, command.payloadHash().bytes());
            insert.setString(4, command.type());
            insert.setString(5, command.canonicalJson());
            insert.executeUpdate();
        }
    }

    private static ClaimRequest request(SubjectId subject, OperationId operationId, Command command) {
        return new ClaimRequest(subject, operationId, command, AttemptContext.unattested(UUID.randomUUID(), "race", null));
    }
}
