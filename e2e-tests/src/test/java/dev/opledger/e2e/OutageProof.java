package dev.opledger.e2e;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 15's outages under checkout load through the API, at full length ({@link Outages} says
 * what each does and what must hold): Kafka stopped for a minute, PostgreSQL restarted mid-load, a
 * tool server unreachable for 30 s; {@code opledger.prove.outage.rate} checkouts a second (4),
 * {@code opledger.prove.outage.kafka-seconds} (60), {@code .postgres-seconds} (10),
 * {@code .tools-seconds} (30). The short versions CI runs: {@link OutageIT} (PostgreSQL, the tool
 * server), {@code BrokerOutageCheckoutsIT} (Kafka, 30 s) and, for the API alone,
 * {@code DatabaseOutageIT} (backend).
 */
@Timeout(value = 30, unit = TimeUnit.MINUTES)
class OutageProof {

    /** Within the outages branch's port range (19300–19399). */
    private static final int PRIVATE_POSTGRES_PORT = 19320;
    /** The hung database's, within the outage2 branch's range (18200–18299). */
    private static final int HUNG_POSTGRES_PORT = 18220;

    @RegisterExtension
    final ChildNodes nodes = new ChildNodes();

    private final Outages outages = new Outages(nodes, Duration.ofSeconds(10), Duration.ofSeconds(10),
            Double.parseDouble(System.getProperty("opledger.prove.outage.rate", "4")));

    @AfterEach
    void stopEverything() {
        outages.close();
    }

    @Test
    void kafkaStoppedForAMinute() throws Exception {
        outages.kafkaStopped("outage-kafka", seconds("kafka", 60));
    }

    @Test
    void postgresRestartedMidLoad() throws Exception {
        outages.postgresRestarted("outage-postgres", seconds("postgres", 10), PRIVATE_POSTGRES_PORT);
    }

    @Test
    void postgresHungForAMinute() throws Exception {
        outages.postgresHung("outage-postgres-hung", seconds("postgres-hung", 60), HUNG_POSTGRES_PORT);
    }

    @Test
    void toolServerUnreachableForThirtySeconds() throws Exception {
        outages.toolServerStopped("outage-tools", seconds("tools", 30));
    }

    private static Duration seconds(String outage, long fallback) {
        return Duration.ofSeconds(Long.getLong("opledger.prove.outage." + outage + "-seconds", fallback));
    }
}
