package dev.opledger.testing;

import dev.opledger.node.kafka.EmbeddedBroker;

/**
 * One real Kafka broker per test JVM ({@link EmbeddedBroker}, in-process KRaft), started on first
 * use (2–4 s) and stopped when the JVM exits, as {@link TestDatabase} does for PostgreSQL. Only
 * contexts that read events start it: {@link EventsIntegrationTest}.
 */
public final class TestKafka {

    private static EmbeddedBroker shared;

    private TestKafka() {
    }

    public static synchronized EmbeddedBroker shared() {
        if (shared == null) {
            EmbeddedBroker started = EmbeddedBroker.start();
            Runtime.getRuntime().addShutdownHook(new Thread(started::close));
            shared = started;
        }
        return shared;
    }
}
