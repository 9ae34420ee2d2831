import dev.opledger.node.kafka.EmbeddedBroker;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The relay benchmark's tools (bench/relay/run.sh), run with the node jar's libraries on the class
 * path (java -Djarmode=tools -jar ui/target/opledger.jar extract):
 *
 * <pre>
 *   broker FILE                     a Kafka 4 broker (EmbeddedBroker) in this process; writes its
 *                                   bootstrap address to FILE, runs until killed
 *   rounds BOOTSTRAP JDBC NODE_PID BROKER_PID N BATCH ROUNDS
 *                                   per round: N outbox rows in one transaction, the node's relay
 *                                   drains them; then the same N records, read back from the topic,
 *                                   sent by a bare transactional idempotent producer in
 *                                   transactions of BATCH; prints a RESULT line per round
 *   lag BOOTSTRAP FILE              a read_committed consumer of the events topic from its end:
 *                                   one line per event, "consumedAtMillis occurredAtMillis type
 *                                   operationId", until killed
 * </pre>
 */
public class RelayBench {

    static final String TOPIC = "opledger.operation-events";
    static final String BARE_TOPIC = "opledger.bench.bare";
    static final long HZ = 100; // USER_HZ on Linux
    private static final Pattern OCCURRED = Pattern.compile("\"occurredAt\":\"([^\"]+)\"");
    private static final Pattern TYPE = Pattern.compile("\"type\":\"([^\"]+)\"");

    public static void main(String[] args) throws Exception {
        ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
                .setLevel(ch.qos.logback.classic.Level.WARN);
        switch (args[0]) {
            case "broker" -> broker(Path.of(args[1]));
            case "rounds" -> rounds(args[1], args[2], Long.parseLong(args[3]), Long.parseLong(args[4]),
                    Integer.parseInt(args[5]), Integer.parseInt(args[6]), Integer.parseInt(args[7]));
            case "lag" -> lag(args[1], Path.of(args[2]));
            default -> throw new IllegalArgumentException("broker | rounds | lag");
        }
    }

    static void broker(Path file) throws Exception {
        EmbeddedBroker broker = EmbeddedBroker.start();
        Runtime.getRuntime().addShutdownHook(new Thread(broker::close));
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            // the bare producer's topic, as the node creates its own: 6 partitions
            admin.createTopics(List.of(new NewTopic(BARE_TOPIC, 6, (short) 1))).all().get();
        }
        Files.writeString(file, broker.bootstrapServers());
        Thread.sleep(Long.MAX_VALUE);
    }

    static void rounds(String bootstrap, String jdbcUrl, long nodePid, long brokerPid, int n, int batch, int rounds)
            throws Exception {
        try (Connection db = DriverManager.getConnection(jdbcUrl, "postgres", "");
                var consumer = consumer(bootstrap, "bench-reader-" + UUID.randomUUID());
                var producer = bareProducer(bootstrap)) {
            producer.initTransactions();
            List<TopicPartition> partitions = consumer.partitionsFor(TOPIC).stream()
                    .map(p -> new TopicPartition(TOPIC, p.partition())).toList();
            consumer.assign(partitions);
            for (int round = 1; round <= rounds; round++) {
                Map<TopicPartition, Long> start = consumer.endOffsets(partitions);
                // ---- the relay: N rows committed at once, drained by the node's relay
                long node0 = ticks(nodePid);
                long broker0 = ticks(brokerPid);
                long pg0 = pgTicks();
                long t0 = System.nanoTime();
                insert(db, n, round);
                long committed = System.nanoTime();
                while (backlog(db) > 0) {
                    Thread.sleep(5);
                }
                long drained = System.nanoTime();
                long node1 = ticks(nodePid);
                long broker1 = ticks(brokerPid);
                long pg1 = pgTicks();
                double relaySeconds = (drained - committed) / 1e9;
                // ---- the same records, back from the topic
                start.forEach(consumer::seek);
                List<ProducerRecord<String, byte[]>> records = new ArrayList<>(n);
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                long bytes = 0;
                while (records.size() < n && System.nanoTime() < deadline) {
                    for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                        records.add(new ProducerRecord<>(BARE_TOPIC, null, r.key(), r.value(), r.headers()));
                        bytes += r.serializedKeySize() + r.serializedValueSize();
                    }
                }
                if (records.size() != n) {
                    throw new IllegalStateException("read " + records.size() + " of the " + n + " records back");
                }
                // ---- the bare producer
                long self0 = selfCpuNanos();
                long bbroker0 = ticks(brokerPid);
                long b0 = System.nanoTime();
                for (int from = 0; from < n; from += batch) {
                    producer.beginTransaction();
                    for (var record : records.subList(from, Math.min(n, from + batch))) {
                        producer.send(record);
                    }
                    producer.commitTransaction();
                }
                long b1 = System.nanoTime();
                long self1 = selfCpuNanos();
                long bbroker1 = ticks(brokerPid);
                double bareSeconds = (b1 - b0) / 1e9;
                double relayEps = n / relaySeconds;
                double bareEps = n / bareSeconds;
                System.out.printf(
                        "RESULT round=%d events=%d value_bytes_avg=%d insert_s=%.2f relay_eps=%.0f bare_eps=%.0f ratio=%.3f "
                                + "relay_node_cpu_us=%.1f relay_broker_cpu_us=%.1f relay_pg_cpu_us=%.1f "
                                + "bare_cpu_us=%.1f bare_broker_cpu_us=%.1f%n",
                        round, n, bytes / n, (committed - t0) / 1e9, relayEps, bareEps, relayEps / bareEps,
                        perEvent(node1 - node0, n), perEvent(broker1 - broker0, n), perEvent(pg1 - pg0, n),
                        (self1 - self0) / 1e3 / n, perEvent(bbroker1 - bbroker0, n));
            }
        }
    }

    /** What the claim writes for its event: an operation and its OperationAccepted row (ClaimStatement). */
    static void insert(Connection db, int n, int round) throws SQLException {
        db.setAutoCommit(false);
        try (var statement = db.prepareStatement("""
                WITH claimed AS (
                  INSERT INTO operation (subject_id, operation_id, payload_hash, command_type, command, attested, event_sequence)
                  SELECT 'bench-relay-' || ? || '-' || (i % 100), gen_random_uuid(), sha256(i::text::bytea), 'checkout',
                         '{"sku":"A-1","amount":12.5,"currency":"EUR","quantity":2,"recipient":"ann@example.com"}'::jsonb,
                         false, 1
                  FROM generate_series(1, ?) i
                  RETURNING id, operation_id, subject_id, command_type)
                INSERT INTO outbox_event (operation_ref, operation_id, subject_id, sequence, type, status, tool, step_key, payload)
                SELECT id, operation_id, subject_id, 1, 'OperationAccepted', 'ACCEPTED', NULL, NULL,
                       jsonb_build_object('commandType', command_type)
                FROM claimed
                """)) {
            statement.setInt(1, round);
            statement.setInt(2, n);
            statement.executeUpdate();
        }
        db.commit();
        db.setAutoCommit(true);
    }

    static long backlog(Connection db) throws SQLException {
        try (var statement = db.createStatement();
                var rows = statement.executeQuery("SELECT count(*) FROM outbox_event WHERE published_at IS NULL")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    static void lag(String bootstrap, Path file) throws Exception {
        try (var consumer = consumer(bootstrap, "bench-lag-" + UUID.randomUUID());
                var out = new PrintWriter(Files.newBufferedWriter(file))) {
            Runtime.getRuntime().addShutdownHook(new Thread(out::flush));
            List<TopicPartition> partitions = List.of();
            while (partitions.isEmpty()) { // the node creates the topic when it starts
                partitions = consumer.listTopics().containsKey(TOPIC)
                        ? consumer.partitionsFor(TOPIC).stream().map(p -> new TopicPartition(TOPIC, p.partition())).toList()
                        : List.of();
                if (partitions.isEmpty()) {
                    Thread.sleep(500);
                }
            }
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            System.out.println("LISTENING " + partitions.size() + " partitions");
            while (true) {
                var records = consumer.poll(Duration.ofMillis(500));
                long now = System.currentTimeMillis();
                for (ConsumerRecord<String, byte[]> r : records) {
                    String value = new String(r.value(), java.nio.charset.StandardCharsets.UTF_8);
                    Matcher occurred = OCCURRED.matcher(value);
                    Matcher type = TYPE.matcher(value);
                    if (occurred.find() && type.find()) {
                        out.println(now + " " + Instant.parse(occurred.group(1)).toEpochMilli() + " " + type.group(1) + " "
                                + r.key());
                    }
                }
                if (!records.isEmpty()) {
                    out.flush();
                }
            }
        }
    }

    static KafkaConsumer<String, byte[]> consumer(String bootstrap, String clientId) {
        Properties settings = new Properties();
        settings.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        settings.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        settings.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        settings.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50);
        return new KafkaConsumer<>(settings, new StringDeserializer(), new ByteArrayDeserializer());
    }

    /** As the relay's producer (EventsConfiguration.producerSettings), with a transactional id of its own. */
    static KafkaProducer<String, byte[]> bareProducer(String bootstrap) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        settings.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "opledger-bench-bare");
        settings.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 15_000);
        return new KafkaProducer<>(settings, new StringSerializer(), new ByteArraySerializer());
    }

    static double perEvent(long ticks, int n) {
        return ticks * 1e6 / HZ / n;
    }

    static long ticks(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
    }

    /** Every PostgreSQL process's CPU, plus what exited backends left in the postmaster's child counters. */
    static long pgTicks() throws Exception {
        long total = 0;
        long postmaster = -1;
        long oldestStart = Long.MAX_VALUE;
        try (var dirs = Files.list(Path.of("/proc"))) {
            for (Path dir : dirs.filter(d -> d.getFileName().toString().chars().allMatch(Character::isDigit)).toList()) {
                try {
                    String comm = Files.readString(dir.resolve("comm")).strip();
                    if (!comm.equals("postgres")) {
                        continue;
                    }
                    String stat = Files.readString(dir.resolve("stat"));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    total += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                    long started = Long.parseLong(f[19]);
                    if (started < oldestStart) {
                        oldestStart = started;
                        postmaster = Long.parseLong(dir.getFileName().toString());
                    }
                } catch (java.io.IOException | RuntimeException e) {
                    // the process ended meanwhile
                }
            }
        }
        if (postmaster > 0) {
            String stat = Files.readString(Path.of("/proc/" + postmaster + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            total += Long.parseLong(f[13]) + Long.parseLong(f[14]); // cutime, cstime
        }
        return total;
    }

    static long selfCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
