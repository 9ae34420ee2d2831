package dev.opledger.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.opledger.OpledgerApplication;
import dev.opledger.testing.ApiClient;
import dev.opledger.testing.Checkout;
import dev.opledger.testing.PrivatePostgres;
import dev.opledger.testing.TestTokens;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The API while its database is unreachable: a running node on a PostgreSQL cluster of the test's
 * own ({@link PrivatePostgres}; the shared server is never stopped), which the test stops with
 * {@code pg_ctl stop -m fast} as an operator's restart does. Every request that needs the database
 * — a new submission, a retry of an accepted one, a read, concurrent duplicates — is answered
 * within about Hikari's connection timeout with 503 {@code database-unavailable},
 * {@code Retry-After} and problem+json, never 500 and never a hang; once the server is back the
 * same requests succeed, and what was refused left nothing behind (the retry of the refused
 * submission is its first acceptance: 202, one row).
 */
@SpringBootTest(classes = OpledgerApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS) // its pool points at a cluster that goes away
@Timeout(180)
class DatabaseOutageIT {

    /** Within the outages branch's port range (19300–19399). */
    private static final int PORT = 19311;
    private static final int CONNECTION_TIMEOUT_MS = 2000;
    /** What "no hang" means here: the connection timeout, and ample room for a loaded machine. */
    private static final Duration BOUND = Duration.ofSeconds(15);

    private static PrivatePostgres cluster;

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void onAPrivateCluster(DynamicPropertyRegistry registry) {
        assumeTrue(PrivatePostgres.available(), "needs PostgreSQL's initdb (and, as root, runuser and a postgres user)");
        cluster = PrivatePostgres.underTheNode(PORT, "opledger_outage", CONNECTION_TIMEOUT_MS, registry);
    }

    @AfterAll
    static void removeTheCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void whileTheDatabaseIsDownEveryRequestGetsARetryable503AndNothingIsLostOrDoubledOnceItIsBack() throws Exception {
        var api = ApiClient.onPort(port);
        String subject = "outage-" + UUID.randomUUID();
        String token = TestTokens.forSubject(subject);
        String accepted = UUID.randomUUID().toString();
        String refused = UUID.randomUUID().toString();
        assertThat(api.submit(token, accepted, Checkout.command()).statusCode()).isEqualTo(202);

        cluster.stop();

        // a new submission, the retry of an accepted one, a read: each refused in time, retryably
        assertUnavailable(api.submit(token, refused, Checkout.command()), timed(() -> api.submit(token, refused,
                Checkout.command())));
        assertUnavailable(api.submit(token, accepted, Checkout.command()), null);
        assertUnavailable(api.get(token, "/v1/operations/" + accepted), timed(() -> api.get(token,
                "/v1/operations/" + accepted)));
        // concurrent duplicates of the refused one: all 503, none 500
        List<HttpResponse<String>> duplicates = new ArrayList<>();
        try (var together = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<HttpResponse<String>>> sent = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                sent.add(together.submit(() -> api.submit(token, refused, Checkout.command())));
            }
            for (Future<HttpResponse<String>> response : sent) {
                duplicates.add(response.get());
            }
        }
        assertThat(duplicates).extracting(HttpResponse::statusCode).containsOnly(503);

        cluster.startAgain();

        // the pool finds the server again by itself: the client's retries after Retry-After succeed
        await("the node answering from its database again").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofSeconds(DatabaseUnavailable.RETRY_AFTER_SECONDS))
                .until(() -> api.get(token, "/v1/operations/" + accepted).statusCode() == 200);
        assertThat(api.submit(token, refused, Checkout.command()).statusCode())
                .as("the refused submission stored nothing: its retry is its first acceptance").isEqualTo(202);
        List<HttpResponse<String>> retries = new ArrayList<>();
        try (var together = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<HttpResponse<String>>> sent = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                sent.add(together.submit(() -> api.submit(token, refused, Checkout.command())));
            }
            for (Future<HttpResponse<String>> response : sent) {
                retries.add(response.get());
            }
        }
        assertThat(retries).extracting(HttpResponse::statusCode).containsOnly(200);
        assertThat(api.submit(token, accepted, Checkout.command()).statusCode()).isEqualTo(200);
        assertThat(operationRows(subject)).as("one row per operationId, whatever was sent during the outage")
                .isEqualTo(2);
    }

    private static void assertUnavailable(HttpResponse<String> response, Duration took) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(response.headers().firstValue("Retry-After"))
                .hasValue(Integer.toString(DatabaseUnavailable.RETRY_AFTER_SECONDS));
        var problem = ApiClient.json(response);
        assertThat(problem.get("type").asString()).isEqualTo("https://opledger.dev/problems/database-unavailable");
        assertThat(problem.get("status").asInt()).isEqualTo(503);
        assertThat(problem.get("detail").asString()).doesNotContain("Exception").doesNotContain("jdbc:");
        if (took != null) {
            assertThat(took).as("answered, not hung").isLessThan(BOUND);
        }
    }

    private static Duration timed(java.util.function.Supplier<HttpResponse<String>> request) {
        long started = System.nanoTime();
        var response = request.get();
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
        return took;
    }

    private static long operationRows(String subject) throws SQLException {
        try (Connection db = cluster.connect("opledger_outage");
                var query = db.prepareStatement("SELECT count(*) FROM operation WHERE subject_id = ?")) {
            query.setString(1, subject);
            try (var rows = query.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }
}
