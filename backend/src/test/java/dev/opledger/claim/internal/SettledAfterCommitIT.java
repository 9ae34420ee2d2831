package dev.opledger.claim.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.claim.ClaimService;
import dev.opledger.claim.OperationState;
import dev.opledger.notification.DatabaseNotifications;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.Operations;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A worker's end of a run can commit with the writes its run held (issue 13): the requests
 * waiting on the operation ({@code Prefer: wait}) are answered once that transaction commits, not
 * when the end is written inside it, and not at all when it rolls back.
 */
@NodeIntegrationTest
class SettledAfterCommitIT {

    @Autowired
    ClaimService claims;

    @Autowired
    OperationReader reader;

    @Autowired
    DatabaseNotifications databaseNotifications;

    @Autowired
    DataSource dataSource;

    private SettleWaiters waiters;
    private OperationNotifications notifications;
    private TransactionTemplate transactions;
    private OperationState accepted;

    @BeforeEach
    void waitOnAnAcceptedOperation() {
        waiters = new SettleWaiters(reader, new SimpleMeterRegistry());
        notifications = new OperationNotifications(databaseNotifications, waiters, event -> {
        });
        transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        var subject = new SubjectId("settled-" + UUID.randomUUID());
        var id = Operations.claim(claims, subject, 1).getFirst();
        accepted = reader.find(subject, id).orElseThrow();
        assertThat(accepted.status()).isEqualTo(OperationStatus.ACCEPTED);
    }

    @Test
    void aWaiterIsAnsweredWhenTheEndCommitsNotWhenItIsWritten() throws Exception {
        CompletableFuture<OperationState> answer = waiters.await(accepted, Duration.ofSeconds(30));
        OperationState ended = ended(accepted);

        transactions.executeWithoutResult(status -> {
            notifications.settled(ended);
            assertThat(answer).as("inside the transaction").isNotDone();
        });

        assertThat(answer.get(5, TimeUnit.SECONDS).status()).isEqualTo(OperationStatus.SUCCEEDED);
    }

    @Test
    void anEndRolledBackAnswersNoWaiter() throws Exception {
        CompletableFuture<OperationState> answer = waiters.await(accepted, Duration.ofSeconds(30));

        transactions.executeWithoutResult(status -> {
            notifications.settled(ended(accepted));
            status.setRollbackOnly();
        });

        Thread.sleep(200);
        assertThat(answer).isNotDone();
    }

    @Test
    void withoutATransactionAWaiterIsAnsweredAtOnce() throws Exception {
        CompletableFuture<OperationState> answer = waiters.await(accepted, Duration.ofSeconds(30));

        notifications.settled(ended(accepted));

        assertThat(answer).isCompletedWithValueMatching(state -> state.status() == OperationStatus.SUCCEEDED);
    }

    private static OperationState ended(OperationState state) {
        return new OperationState(state.subject(), state.operationId(), state.type(), OperationStatus.SUCCEEDED,
                state.payloadHash(), state.createdAt(), state.updatedAt(), null);
    }
}
