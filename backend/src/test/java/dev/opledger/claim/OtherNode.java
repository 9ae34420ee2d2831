package dev.opledger.claim;

import static org.awaitility.Awaitility.await;

import dev.opledger.claim.internal.LeaseMeters;
import dev.opledger.claim.internal.OperationNotifications;
import dev.opledger.claim.internal.OperationReader;
import dev.opledger.claim.internal.OtherNodeParts;
import dev.opledger.notification.DatabaseNotifications;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The claim stage of another node on the test's database: its own claim and lifecycle services
 * and its own notification sender, but no worker and no subscribers. What it changes reaches the
 * test's node only as PostgreSQL notifications, never in-process; it is ready once it has heard
 * that the test's node listens (a node sends only while another one does).
 */
public final class OtherNode implements AutoCloseable {

    public final ClaimService claims;
    public final LifecycleService lifecycle;
    private final DatabaseNotifications notifications;

    public OtherNode(DataSource dataSource, OperationReader reader) {
        var jdbc = new JdbcTemplate(dataSource);
        notifications = new DatabaseNotifications(dataSource, List.of());
        notifications.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> notifications.listening() && notifications.othersListening());
        OperationNotifications sent = OtherNodeParts.operationNotifications(notifications, reader);
        claims = new ClaimService(OtherNodeParts.claimStatement(jdbc), OtherNodeParts.operationStateQuery(jdbc), new SimpleMeterRegistry(), sent);
        lifecycle = new LifecycleService(OtherNodeParts.lifecycleStatements(jdbc), sent,
                new LeaseMeters(new SimpleMeterRegistry()));
    }

    @Override
    public void close() {
        notifications.stop();
    }
}
