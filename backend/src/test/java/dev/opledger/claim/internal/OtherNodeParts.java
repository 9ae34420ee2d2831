package dev.opledger.claim.internal;

import dev.opledger.notification.DatabaseNotifications;
import dev.opledger.outbox.OutboxTrace;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/** The claim stage's internal parts of another node on the same database (see {@code dev.opledger.claim.OtherNode}). */
public final class OtherNodeParts {

    private OtherNodeParts() {
    }

    public static ClaimStatement claimStatement(JdbcTemplate jdbc) {
        return new ClaimStatement(jdbc, OutboxTrace.none());
    }

    public static LifecycleStatements lifecycleStatements(JdbcTemplate jdbc) {
        return new LifecycleStatements(jdbc, new DataSourceTransactionManager(jdbc.getDataSource()), OutboxTrace.none());
    }

    /** Its notifications: sent through {@code notifications}; its in-process events go nowhere (it runs no worker). */
    public static OperationStateQuery operationStateQuery(JdbcTemplate jdbc) {
        return new OperationStateQuery(jdbc);
    }

    public static OperationNotifications operationNotifications(DatabaseNotifications notifications, OperationReader reader) {
        return new OperationNotifications(notifications, new SettleWaiters(reader, new SimpleMeterRegistry()), event -> {
        });
    }
}
