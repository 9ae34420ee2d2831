package dev.opledger.e2e.checkout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.OpledgerApplication;
import dev.opledger.e2e.mcp.ReferenceToolsFixture;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.replay.DryRunOutcome;
import dev.opledger.replay.ReplayPlan;
import dev.opledger.replay.ReplayService;
import dev.opledger.replay.ReplayStartOutcome;
import dev.opledger.testing.TestDatabaseInitializer;
import dev.opledger.tools.ReferenceToolsServer;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Issue 12's measure: the replay of a 5-step checkout from its first checkpoint against the first
 * run of the same checkout, in the same JVM and database. Time from the ledger's own timestamps
 * (the claim's ACCEPTED transition, or the replay's, to SUCCEEDED); database commits counted on the
 * node's DataSource (each commit of a transaction, and each statement run in autocommit, which is a
 * transaction of its own, read-only ones included), the test's own reads going through a connection
 * of their own. The workers poll every 10 s, so idle polls hardly count: claims and replays wake
 * them (NOTIFY). Prints the figures for docs/benchmarks.md.
 */
@SpringBootTest(classes = OpledgerApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
                "spring.autoconfigure.exclude=com.vaadin.flow.spring.SpringBootAutoConfiguration,"
                        + "com.vaadin.flow.spring.SpringSecurityAutoConfiguration,com.vaadin.flow.spring.VaadinScopesConfig",
                "opledger.worker.enabled=true",
                "opledger.worker.poll-interval=10s",
                "opledger.effects.backoff=10ms"})
@ActiveProfiles("test")
@ContextConfiguration(initializers = TestDatabaseInitializer.class)
@DirtiesContext
@org.springframework.context.annotation.Import(ReplayBench.CountingDataSource.class)
class ReplayBench {

    private static final int ROUNDS = 10;
    static final TransactionRecorder RECORDER = new TransactionRecorder();

    @TestConfiguration
    static class CountingDataSource {
        @Bean
        static BeanPostProcessor countCommits() {
            return RECORDER.wrappingDataSources();
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
    ReplayService replays;

    @Autowired
    DataSource node;

    private final ReferenceToolsServer tools = ReferenceToolsFixture.server();
    private final String subject = "replay-bench-" + UUID.randomUUID();

    @Test
    void aReplayFromTheFirstCheckpointAgainstTheFirstRun() throws Exception {
        // a connection outside the counted pool for the test's own reads
        var database = dev.opledger.testing.TestDatabase.shared();
        JdbcTemplate reads = new JdbcTemplate(new SingleConnectionDataSource(database.url(), database.username(),
                database.password(), true));
        List<Long> firstMillis = new ArrayList<>();
        List<Long> replayMillis = new ArrayList<>();
        List<Long> firstCommits = new ArrayList<>();
        List<Long> replayCommits = new ArrayList<>();
        assertThat(Proxy.isProxyClass(node.getClass())).as("the node's DataSource counts its commits").isTrue();
        RECORDER.start();
        submitAndWait(reads); // warm-up: the first checkout of a JVM loads classes and fills caches
        for (int round = 0; round < ROUNDS; round++) {
            long before = RECORDER.count();
            UUID operation = submitAndWait(reads);
            firstCommits.add(RECORDER.count() - before);
            firstMillis.add(millis(reads, operation, "ACCEPTED", null));

            SecurityContextHolder.getContext().setAuthentication(UsernamePasswordAuthenticationToken.authenticated(
                    "admin", null, AuthorityUtils.createAuthorityList("ROLE_ADMIN")));
            UUID first = reads.queryForObject("SELECT checkpoint_id FROM graph_checkpoint WHERE thread_id = ? "
                    + "ORDER BY seq LIMIT 1", UUID.class, operation);
            before = RECORDER.count();
            ReplayPlan plan = ((DryRunOutcome.Planned) replays.dryRun(new SubjectId(subject),
                    new OperationId(operation), first)).plan();
            assertThat(replays.start(new SubjectId(subject), new OperationId(operation), first, plan.digest(),
                    List.of())).isInstanceOf(ReplayStartOutcome.Started.class);
            awaitSucceededTwice(reads, operation);
            replayCommits.add(RECORDER.count() - before);
            replayMillis.add(millis(reads, operation, "ACCEPTED", "console:admin"));
            SecurityContextHolder.clearContext();
            assertThat(tools.effects().ofOperation(operation.toString())).as("no tool called by the replay").hasSize(5);
        }
        System.out.printf("replay bench (%d rounds): first run ms %s median %d; replay ms %s median %d%n", ROUNDS,
                firstMillis, median(firstMillis), replayMillis, median(replayMillis));
        System.out.printf("replay bench: first run commits %s median %d; dry run + start + replay commits %s median %d%n",
                firstCommits, median(firstCommits), replayCommits, median(replayCommits));
    }

    private UUID submitAndWait(JdbcTemplate reads) {
        UUID operationId = InProcessCheckouts.submit(port, subject, InProcessCheckouts.full("49.90"));
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> Set.of("SUCCEEDED")
                .contains(reads.queryForObject("SELECT status FROM operation WHERE operation_id = ?", String.class,
                        operationId)));
        return operationId;
    }

    private static void awaitSucceededTwice(JdbcTemplate reads, UUID operation) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> reads.queryForObject(
                "SELECT count(*) FROM operation_transition t JOIN operation o ON o.id = t.operation_ref "
                        + "WHERE o.operation_id = ? AND t.to_status = 'SUCCEEDED'", Long.class, operation) == 2);
    }

    /** From the last transition into {@code from} (by {@code node}, if given) to the SUCCEEDED after it. */
    private static long millis(JdbcTemplate reads, UUID operation, String from, String byNode) {
        return reads.queryForObject("""
                WITH t AS (SELECT t.* FROM operation_transition t JOIN operation o ON o.id = t.operation_ref
                           WHERE o.operation_id = ?),
                     s AS (SELECT max(occurred_at) AS at FROM t WHERE to_status = ? AND (?::text IS NULL OR node_id = ?))
                SELECT (extract(epoch FROM (SELECT min(occurred_at) FROM t, s WHERE to_status = 'SUCCEEDED'
                        AND occurred_at > s.at) - s.at) * 1000)::bigint FROM s
                """, Long.class, operation, from, byNode, byNode);
    }

    private static long median(List<Long> values) {
        return values.stream().sorted().toList().get(values.size() / 2);
    }
}
