package dev.opledger.node.kafka;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.jspecify.annotations.Nullable;

/**
 * One Kafka 4 node in this JVM, broker and controller in one (KRaft, a static quorum of one), on
 * 127.0.0.1 at free ports, its log in a temporary directory deleted on {@link #close()}. Sized
 * for one machine: one partition per internal topic, replication factor 1 (transactions need
 * {@code transaction.state.log.replication.factor} and {@code min.isr} of 1 on a single
 * broker), few threads. Topics are not created on first use: the node creates its own.
 */
public final class EmbeddedBroker implements AutoCloseable {

    private static final String CONTROLLER = "CONTROLLER";

    private final KafkaConfig config;
    private final Path directory;
    private final String bootstrapServers;
    private @Nullable KafkaRaftServer server;
    private boolean closed;

    private EmbeddedBroker(KafkaConfig config, Path directory, String bootstrapServers) {
        this.config = config;
        this.directory = directory;
        this.bootstrapServers = bootstrapServers;
    }

    public static EmbeddedBroker start() {
        try {
            Path directory = Files.createTempDirectory("opledger-kafka");
            int[] ports = freePorts(2);
            int port = ports[0];
            int controllerPort = ports[1];
            KafkaConfig config = new KafkaConfig(settings(directory, port, controllerPort), false);
            format(config, directory);
            var broker = new EmbeddedBroker(config, directory, "127.0.0.1:" + port);
            broker.restart();
            return broker;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start an embedded Kafka broker", e);
        }
    }

    /** For {@code spring.kafka.bootstrap-servers}. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** Stops the broker and keeps its log, so {@link #restart()} brings the same broker back (tests of an outage). */
    public synchronized void stop() {
        if (server != null) {
            server.shutdown();
            server.awaitShutdown();
            server = null;
        }
    }

    /** Starts the broker again on its ports and log, after {@link #stop()}; a no-op while it runs. */
    public synchronized void restart() {
        if (closed) {
            throw new IllegalStateException("the embedded broker was closed");
        }
        if (server == null) {
            var started = new KafkaRaftServer(config, Time.SYSTEM);
            started.startup();
            server = started;
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stop();
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind
        }
    }

    private static Map<String, Object> settings(Path directory, int port, int controllerPort) {
        Map<String, Object> settings = new HashMap<>();
        settings.put("process.roles", "broker,controller");
        settings.put("node.id", "1");
        settings.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        settings.put("listeners", "PLAINTEXT://127.0.0.1:" + port + "," + CONTROLLER + "://127.0.0.1:" + controllerPort);
        settings.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        settings.put("controller.listener.names", CONTROLLER);
        settings.put("inter.broker.listener.name", "PLAINTEXT");
        settings.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT," + CONTROLLER + ":PLAINTEXT");
        settings.put("log.dirs", directory.resolve("data").toString());
        settings.put("auto.create.topics.enable", "false");
        settings.put("num.partitions", "1");
        settings.put("offsets.topic.replication.factor", "1");
        settings.put("offsets.topic.num.partitions", "1");
        settings.put("transaction.state.log.replication.factor", "1");
        settings.put("transaction.state.log.min.isr", "1");
        settings.put("transaction.state.log.num.partitions", "1");
        settings.put("share.coordinator.state.topic.replication.factor", "1");
        settings.put("share.coordinator.state.topic.min.isr", "1");
        settings.put("group.initial.rebalance.delay.ms", "0");
        settings.put("num.network.threads", "1");
        settings.put("num.io.threads", "2");
        settings.put("background.threads", "2");
        settings.put("log.cleaner.threads", "1");
        settings.put("num.recovery.threads.per.data.dir", "1");
        return settings;
    }

    /** What {@code kafka-storage.sh format} does: a cluster id and the bootstrap metadata in the log directory. */
    private static void format(KafkaConfig config, Path directory) {
        String logDirectory = directory.resolve("data").toString();
        try {
            new Formatter()
                    .setPrintStream(new PrintStream(PrintStream.nullOutputStream()))
                    .setClusterId(Uuid.randomUuid().toString())
                    .setNodeId(config.nodeId())
                    .setDirectories(List.of(logDirectory))
                    .setMetadataLogDirectory(logDirectory)
                    .setControllerListenerName(CONTROLLER)
                    .run();
        } catch (Exception e) {
            throw new IllegalStateException("cannot format the embedded Kafka broker's log directory " + directory, e);
        }
    }

    /**
     * Ports free at the moment, all different: each socket stays open until every port is chosen.
     * One closed before the next was opened let the system hand the same port out twice, and the
     * broker refused its two listeners on one port (seen in CI).
     */
    private static int[] freePorts(int count) throws IOException {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                sockets.add(new ServerSocket(0));
            }
            return sockets.stream().mapToInt(ServerSocket::getLocalPort).toArray();
        } finally {
            for (ServerSocket socket : sockets) {
                socket.close();
            }
        }
    }
}
