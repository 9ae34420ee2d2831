package dev.opledger.e2e.checkout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.OpledgerApplication;
import dev.opledger.e2e.checkout.TransactionRecorder.Transaction;
import dev.opledger.e2e.mcp.ReferenceToolsFixture;
import dev.opledger.testing.TestDatabase;
import dev.opledger.testing.TestDatabaseInitializer;
import dev.opledger.testing.TestKafka;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.MapPropertySource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Issue 13's measure and its regression guard: every transaction the node makes for ONE checkout
 * of three effects (reserve, capture, receipt; the benchmark's body), from the submit until its
 * events are published and in the feed, recorded on the node's DataSource with its statements and
 * the component that made it ({@link TransactionRecorder}). The test's own reads go through a
 * connection of their own.
 *
 * <p>The checkout's path (the claim on the request's thread, the worker's lease, its run, the end
 * of the run) is deterministic and asserted: at most {@link #PATH_COMMITS}. The background (the
 * relay's polls and batches, the feed's batches, the notification sender, the heartbeat) depends on
 * timing; it is counted apart and printed, not asserted. The workers poll every minute, so only the
 * claim's wake-up makes them lease.
 */
@SpringBootTest(classes = OpledgerApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
                "spring.autoconfigure.exclude=com.vaadin.flow.spring.SpringBootAutoConfiguration,"
                        + "com.vaadin.flow.spring.SpringSecurityAutoConfiguration,com.vaadin.flow.spring.VaadinScopesConfig",
                "opledger.worker.enabled=true",
                "opledger.worker.poll-interval=60s",
                "opledger.effects.backoff=10ms"})
@ActiveProfiles("test")
@ContextConfiguration(initializers = {TestDatabaseInitializer.class, CommitsPerCheckoutIT.Events.class})
@DirtiesContext
@Import(CommitsPerCheckoutIT.Recording.class)
class CommitsPerCheckoutIT {

    /**
     * One below issue 13's target of 2 × effects + 3: the claim, the lease, per effect its STARTED
     * (the first with the run's first checkpoint), the first two effects' outcomes each with its
     * step's checkpoint, and the last one's with the last checkpoint and the end of the run.
     * 19 before, 9 until the last outcome was carried to the end of the run.
     */
    static final int PATH_COMMITS = 8;

    /**
     * The row-lock WAL records the checkout writes for its operation's row (pg_walinspect): one
     * each time a transaction first locks a version of the row, or locks it in a stronger mode
     * than it held. The claim's foreign-key check (its own new row, FOR KEY SHARE), the worker's
     * lease, per effect its STARTED's fence and its outcome's fence, and the end of the run's (on
     * the version its outcome's transaction had just written). A checkpoint's fence takes the mode
     * of the writes it commits with, and one that commits after an outcome in the same transaction
     * finds the row locked already (issue 13). 13 before.
     */
    static final int OPERATION_ROW_LOCKS = 9;

    private static final Set<String> BACKGROUND = Set.of("outbox-relay", "activity-feed", "notification-sender",
            "notification-listener", "operation-waits");

    static final TransactionRecorder RECORDER = new TransactionRecorder();

    @TestConfiguration
    static class Recording {
        @Bean
        static BeanPostProcessor recordTransactions() {
            return RECORDER.wrappingDataSources();
        }
    }

    /** The relay and the feed on, against the test JVM's broker, at their default intervals. */
    static class Events implements ApplicationContextInitializer<ConfigurableApplicationContext> {
        @Override
        public void initialize(ConfigurableApplicationContext context) {
            context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("commitsPerCheckoutKafka",
                    Map.of("spring.kafka.bootstrap-servers", TestKafka.shared().bootstrapServers(),
                            "opledger.events.enabled", "true")));
        }
    }

    @DynamicPropertySource
    static void referenceTools(DynamicPropertyRegistry registry) {
        registry.add("opledger.mcp.servers.reference.url", () -> ReferenceToolsFixture.server().url().toString());
        registry.add("opledger.mcp.servers.reference.timeout", () -> "10s");
    }

    @LocalServerPort
    int port;

    @Autowired
    DataSource node;

    private final String subject = "commits-" + UUID.randomUUID();

    @Test
    void oneThreeEffectCheckoutCommitsAtMostItsBudget() throws Exception {
        var database = TestDatabase.shared();
        JdbcTemplate reads = new JdbcTemplate(new SingleConnectionDataSource(database.url(), database.username(),
                database.password(), true));
        assertThat(Proxy.isProxyClass(node.getClass())).as("the node's DataSource is recorded").isTrue();
        checkout(reads); // warm-up: the first checkout of a JVM loads classes and fills caches

        RECORDER.start();
        Thread.sleep(2_000);
        List<Transaction> idle = RECORDER.stop();

        reads.execute("CREATE EXTENSION IF NOT EXISTS pg_walinspect");
        String walFrom = reads.queryForObject("SELECT pg_current_wal_lsn()::text", String.class);
        RECORDER.start();
        UUID operation = checkout(reads);
        List<Transaction> all = RECORDER.stop();
        String walTo = reads.queryForObject("SELECT pg_current_wal_lsn()::text", String.class);
        // a WAL record names the block's relation as "rel tablespace/database/file"
        String operationFile = reads.queryForObject("SELECT '/' || d.oid || '/' || pg_relation_filenode('operation') || ' ' "
                + "FROM pg_database d WHERE d.datname = current_database()", String.class);
        List<String> rowLocks = reads.queryForList("""
                SELECT xid || ': ' || description FROM pg_get_wal_records_info(?::pg_lsn, ?::pg_lsn)
                WHERE resource_manager = 'Heap' AND record_type = 'LOCK' AND block_ref LIKE ?
                ORDER BY start_lsn
                """, String.class, walFrom, walTo, "%" + operationFile + "%");
        assertThat(ReferenceToolsFixture.server().effects().ofOperation(operation.toString()))
                .as("the checkout's three effects").hasSize(3);

        Predicate<Transaction> background = t -> BACKGROUND.contains(t.thread()) || t.thread().startsWith("worker-heartbeat");
        List<Transaction> path = all.stream().filter(background.negate()).toList();
        List<Transaction> rest = all.stream().filter(background).toList();
        long pathCommits = path.stream().filter(Transaction::committed).count();
        long restCommits = rest.stream().filter(Transaction::committed).count();

        StringBuilder report = new StringBuilder("commits per checkout: path " + pathCommits + ", background "
                + restCommits + " (" + rest.stream().filter(Transaction::writes).count() + " writing), idle 2 s: "
                + idle.size() + "\n-- path\n");
        path.forEach(t -> report.append("  ").append(t).append('\n'));
        report.append("-- background, by thread\n");
        rest.stream().collect(Collectors.groupingBy(t -> t.thread() + " " + (t.writes() ? "write" : "read-only"),
                java.util.TreeMap::new, Collectors.toList())).forEach((thread, list) -> {
                    report.append("  ").append(thread).append(": ").append(list.size()).append('\n');
                    list.stream().map(t -> t.component() + ": " + String.join("; ", t.statements())).distinct()
                            .forEach(s -> report.append("      ").append(s).append('\n'));
                });
        report.append("-- idle, by thread\n");
        idle.stream().collect(Collectors.groupingBy(Transaction::thread, java.util.TreeMap::new, Collectors.counting()))
                .forEach((thread, count) -> report.append("  ").append(thread).append(": ").append(count).append('\n'));
        report.append("-- row-lock WAL records on the operation table: ").append(rowLocks.size()).append('\n');
        rowLocks.forEach(lock -> report.append("  ").append(lock).append('\n'));
        System.out.println(report);

        assertThat(pathCommits).as("the checkout path's commits:\n" + report).isLessThanOrEqualTo(PATH_COMMITS);
        assertThat(rowLocks).as("row-lock WAL records on the operation table:\n" + report)
                .hasSizeLessThanOrEqualTo(OPERATION_ROW_LOCKS);
    }

    /** Submits the benchmark's checkout, waits for SUCCEEDED and for its events to be published and in the feed. */
    private UUID checkout(JdbcTemplate reads) {
        UUID operation = InProcessCheckouts.submit(port, subject, "{\"sku\":\"SKU-ESPRESSO\",\"quantity\":1,"
                + "\"amount\":49.90,\"currency\":\"EUR\",\"recipient\":\"ann@example.com\"}");
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> "SUCCEEDED".equals(
                reads.queryForObject("SELECT status FROM operation WHERE operation_id = ?", String.class, operation)));
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> reads.queryForObject("""
                SELECT (SELECT count(*) FROM outbox_event WHERE operation_id = ? AND published_at IS NULL) = 0
                   AND (SELECT count(*) FROM outbox_event WHERE operation_id = ?)
                     = (SELECT count(*) FROM activity_feed_entry WHERE operation_id = ?)
                """, Boolean.class, operation, operation, operation));
        return operation;
    }
}
