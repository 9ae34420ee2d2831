package dev.opledger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.testing.MutableClock;
import dev.opledger.testing.NodeIntegrationTest;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolderStrategy;
import org.springframework.test.annotation.DirtiesContext;

/**
 * Failed sign-ins are throttled per username and per client address (issue 8), with the default
 * settings: 5 failures lock a username for a minute on every address, 20 lock an address for
 * every username. The node's clock is this test's, so locks end without waiting; each test comes
 * from loopback addresses of its own (127.0.0.x).
 *
 * <p>That clock makes this node a Spring context of its own, closed after the class. Vaadin makes
 * each node's security context strategy the JVM's ({@link SecurityContextHolder}), so the strategy
 * from before is put back: the other console tests' node, cached, still reads its own.
 */
@NodeIntegrationTest
@Import(SignInThrottleIT.TestClock.class)
@DirtiesContext
class SignInThrottleIT {

    private static SecurityContextHolderStrategy strategyBefore;

    @BeforeAll
    static void rememberTheSecurityContextStrategy() {
        strategyBefore = SecurityContextHolder.getContextHolderStrategy();
    }

    @AfterAll
    static void restoreTheSecurityContextStrategy() {
        SecurityContextHolder.setContextHolderStrategy(strategyBefore);
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class TestClock {
        @Bean
        @Primary
        MutableClock testClock() {
            return new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    MutableClock clock;

    @Autowired
    JdbcTemplate jdbc;

    private long auditBefore;

    @BeforeEach
    void markTheAuditLog() {
        auditBefore = jdbc.queryForObject("SELECT coalesce(max(id), 0) FROM console_audit", Long.class);
    }

    @AfterEach
    void forgetEveryFailure() {
        clock.advance(Duration.ofDays(1));
    }

    @Test
    void twentyWrongPasswordsLockTheUserAndTheRightOneIsRefusedUntilTheLockEnds() {
        var console = from("127.0.0.2");
        for (int i = 0; i < 20; i++) {
            assertRefused(console.signIn("admin", "wrong-" + i));
        }

        assertRefused(console.signIn("admin", "admin-test"));
        assertRefused(from("127.0.0.3").signIn("admin", "admin-test"));
        clock.advance(Duration.ofSeconds(59));
        assertRefused(console.signIn("admin", "admin-test"));
        clock.advance(Duration.ofSeconds(1));
        assertSignedIn(console.signIn("admin", "admin-test"));

        assertThat(audit("admin")).containsExactly(
                "SIGN_IN_FAILED", "SIGN_IN_FAILED", "SIGN_IN_FAILED", "SIGN_IN_FAILED",
                "SIGN_IN_LOCKED user:admin", "SIGN_IN_FAILED",
                "SIGN_IN_THROTTLED", "SIGN_IN_THROTTLED", "SIGN_IN_THROTTLED", "SIGN_IN_THROTTLED", "SIGN_IN_THROTTLED",
                "SIGN_IN_THROTTLED", "SIGN_IN_THROTTLED", "SIGN_IN_THROTTLED", "SIGN_IN_THROTTLED", "SIGN_IN_THROTTLED",
                "SIGN_IN_THROTTLED", "SIGN_IN_THROTTLED", "SIGN_IN_THROTTLED", "SIGN_IN_THROTTLED", "SIGN_IN_THROTTLED",
                "SIGN_IN_THROTTLED", "SIGN_IN_THROTTLED", "SIGN_IN_THROTTLED",
                "SIGN_IN");
        assertThat(jdbc.queryForList("SELECT DISTINCT client_address FROM console_audit WHERE id > ? AND actor = 'admin'",
                String.class, auditBefore)).containsExactlyInAnyOrder("127.0.0.2", "127.0.0.3");
    }

    @Test
    void anUnknownUserGetsTheAnswersAKnownOneGets() {
        String nobody = "nobody-" + UUID.randomUUID();
        var known = from("127.0.0.4");
        var unknown = from("127.0.0.5");

        for (int i = 0; i < 7; i++) {
            var knownAnswer = known.signIn("support", "wrong");
            var unknownAnswer = unknown.signIn(nobody, "wrong");
            assertRefused(knownAnswer);
            assertRefused(unknownAnswer);
            assertThat(unknownAnswer.body()).isEqualTo(knownAnswer.body());
        }
        assertThat(actions(nobody)).isEqualTo(actions("support")).containsExactly(
                "SIGN_IN_FAILED", "SIGN_IN_FAILED", "SIGN_IN_FAILED", "SIGN_IN_FAILED", "SIGN_IN_LOCKED", "SIGN_IN_FAILED",
                "SIGN_IN_THROTTLED", "SIGN_IN_THROTTLED");
    }

    @Test
    void twentyFailuresFromAnAddressLockItForEveryUserButNotOtherAddresses() {
        var spraying = from("127.0.0.6");
        for (int user = 0; user < 4; user++) {
            for (int attempt = 0; attempt < 5; attempt++) {
                assertRefused(spraying.signIn("sprayed-" + user, "guess-" + attempt));
            }
        }

        assertRefused(spraying.signIn("admin", "admin-test"));
        assertSignedIn(from("127.0.0.7").signIn("admin", "admin-test"));
        assertThat(audit("sprayed-3")).contains("SIGN_IN_LOCKED address:127.0.0.6");
        assertThat(audit("admin")).containsExactly("SIGN_IN_THROTTLED", "SIGN_IN");
    }

    @Test
    void theActuatorsBasicAuthIsThrottledToo() {
        var console = new ConsoleClient(port);
        for (int i = 0; i < 5; i++) {
            assertThat(console.getWithBasic("/actuator/metrics", "admin", "wrong").statusCode()).isEqualTo(401);
        }

        assertThat(console.getWithBasic("/actuator/metrics", "admin", "admin-test").statusCode()).isEqualTo(401);
        clock.advance(Duration.ofMinutes(1));
        assertThat(console.getWithBasic("/actuator/metrics", "admin", "admin-test").statusCode()).isEqualTo(200);
    }

    /** Actions (with the target of a lock) of {@code actor} since the test began, oldest first. */
    private List<String> audit(String actor) {
        return jdbc.queryForList("SELECT action || coalesce(' ' || target, '') FROM console_audit "
                + "WHERE id > ? AND actor = ? ORDER BY id", String.class, auditBefore, actor);
    }

    private List<String> actions(String actor) {
        return jdbc.queryForList("SELECT action FROM console_audit WHERE id > ? AND actor = ? ORDER BY id", String.class,
                auditBefore, actor);
    }

    private void assertRefused(HttpResponse<String> response) {
        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(response.headers().firstValue("Location")).hasValue("http://127.0.0.1:" + port + "/login?error");
    }

    private void assertSignedIn(HttpResponse<String> response) {
        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(response.headers().firstValue("Location")).hasValue("http://127.0.0.1:" + port + "/");
    }

    private ConsoleClient from(String address) {
        try {
            return new ConsoleClient(port, InetAddress.getByName(address));
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
