package dev.opledger.e2e;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The short versions of {@link OutageProof} that CI runs: PostgreSQL restarted (down 5 s) and the
 * tool server unreachable (down 10 s) under 3 checkouts a second, 5 s of load either side, with
 * every check of the long version ({@link Outages}). Kafka's short version is
 * {@code BrokerOutageCheckoutsIT}.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class OutageIT {

    /** Within the outages branch's port range (19300–19399); not OutageProof's, should both run at once. */
    private static final int PRIVATE_POSTGRES_PORT = 19321;
    /** The hung database's, within the outage2 branch's range (18200–18299). */
    private static final int HUNG_POSTGRES_PORT = 18221;

    @RegisterExtension
    final ChildNodes nodes = new ChildNodes();

    private final Outages outages = new Outages(nodes, Duration.ofSeconds(5), Duration.ofSeconds(5), 3);

    @AfterEach
    void stopEverything() {
        outages.close();
    }

    @Test
    void postgresRestartedUnderLoad() throws Exception {
        outages.postgresRestarted("ci-outage-postgres", Duration.ofSeconds(5), PRIVATE_POSTGRES_PORT);
    }

    /** Over a minute (the hang outlasts the socketTimeout twice), so run by {@code ./opledger test long}. */
    @Test
    @LongRunning
    void postgresHungUnderLoad() throws Exception {
        outages.postgresHung("ci-outage-postgres-hung", Duration.ofSeconds(35), HUNG_POSTGRES_PORT);
    }

    @Test
    void toolServerStoppedUnderLoad() throws Exception {
        outages.toolServerStopped("ci-outage-tools", Duration.ofSeconds(10));
    }
}
