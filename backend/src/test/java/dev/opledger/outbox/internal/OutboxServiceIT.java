package dev.opledger.outbox.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dev.opledger.claim.ClaimService;
import dev.opledger.claim.LeasedOperation;
import dev.opledger.claim.LifecycleService;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.outbox.EventType;
import dev.opledger.outbox.OperationEvent;
import dev.opledger.outbox.OperationEvents;
import dev.opledger.outbox.OutboxOverview;
import dev.opledger.outbox.OutboxService;
import dev.opledger.testing.EventsIntegrationTest;
import dev.opledger.testing.Operations;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.AuthenticationCredentialsNotFoundException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * What support staff read of the outbox: an operation's events, each with when the node's real
 * relay published it to Kafka or that it still waits, the ones purged after the retention
 * counted; and the backlog, its lag, the publish rate and the relay's holder. (In the internal
 * package to reach the relay's own purge; the reads go through the public façade.) The node's
 * relay is stopped between tests' phases that need rows to wait.
 */
@EventsIntegrationTest
class OutboxServiceIT {

    private static final Duration PUBLISH_TIMEOUT = Duration.ofSeconds(30);

    @Autowired
    OutboxService outbox;

    @Autowired
    OutboxRelay nodesRelay;

    @Autowired
    OutboxRows rows;

    @Autowired
    EventsProperties properties;

    @Autowired
    ClaimService claims;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    JdbcTemplate jdbc;

    @BeforeEach
    void signInAsSupport() {
        signIn("ROLE_SUPPORT");
    }

    @AfterEach
    void restartTheRelayAndSignOut() {
        if (!nodesRelay.isRunning()) {
            nodesRelay.start();
        }
        SecurityContextHolder.clearContext();
    }

    @Test
    void anOperationsEventsSayWhenEachWasPublishedAndWhichStillWait() {
        OperationId operationId = claimOne();
        awaitEverythingPublished();
        nodesRelay.stop();
        List<LeasedOperation> leased = lifecycle.lease("outbox-it", 1000, Duration.ofMinutes(10));
        assertThat(leased).extracting(LeasedOperation::operationId).contains(operationId);

        OperationEvents events = outbox.events(operationId).orElseThrow();

        assertThat(events.purged()).isZero();
        assertThat(events.events()).extracting(OperationEvent::sequence, OperationEvent::type, OperationEvent::status,
                        OperationEvent::published)
                .containsExactly(tuple(1, EventType.OperationAccepted, "ACCEPTED", true),
                        tuple(2, EventType.OperationRunning, "RUNNING", false));
        OperationEvent accepted = events.events().getFirst();
        assertThat(accepted.publishedAt()).isEqualTo(column("published_at", operationId, 1))
                .isAfterOrEqualTo(accepted.occurredAt());
        assertThat(accepted.eventId()).isEqualTo(jdbc.queryForObject(
                "SELECT event_id FROM outbox_event WHERE operation_id = ? AND sequence = 1", UUID.class,
                operationId.value()));
    }

    @Test
    void theOverviewCountsTheBacklogAndItsLagAndTheRateAndNamesTheRelaysHolder() {
        OperationId operationId = claimOne();
        awaitEverythingPublished();
        await().pollInSameThread().atMost(PUBLISH_TIMEOUT).until(() -> outbox.overview().heldHere());

        OutboxOverview running = outbox.overview();

        assertThat(running.localRelay()).isEqualTo(nodesRelay.node());
        assertThat(running.relay()).isNotNull();
        assertThat(running.relay().holder()).isEqualTo(nodesRelay.node());
        assertThat(running.relay().epoch()).isEqualTo(jdbc.queryForObject("SELECT epoch FROM outbox_relay", Long.class));
        assertThat(running.relay().expiresAt()).isAfter(running.at());
        assertThat(running.publishedLastMinute()).isGreaterThanOrEqualTo(1);
        assertThat(running.lastPublished()).isAfterOrEqualTo(column("published_at", operationId, 1));

        nodesRelay.stop();
        List<LeasedOperation> leased = lifecycle.lease("outbox-it", 1000, Duration.ofMinutes(10));
        jdbc.update("UPDATE outbox_event SET occurred_at = now() - interval '90 seconds' WHERE operation_id = ? "
                + "AND sequence = 2", operationId.value());

        OutboxOverview stopped = outbox.overview();

        assertThat(stopped.backlog()).as("one OperationRunning per leased operation").isEqualTo(leased.size());
        assertThat(stopped.oldestUnpublished()).isEqualTo(column("occurred_at", operationId, 2));
        assertThat(stopped.lag()).hasValueSatisfying(lag -> assertThat(lag).isBetween(Duration.ofSeconds(90),
                Duration.ofSeconds(90).plus(PUBLISH_TIMEOUT)));
        assertThat(stopped.heldHere()).isFalse();
        assertThat(stopped.relay()).isNotNull();
        assertThat(stopped.relay().holder()).as("the last holder").isEqualTo(nodesRelay.node());
        assertThat(stopped.relay().current()).isFalse();
        assertThat(stopped.relay().expiresAt()).as("given up on stopping").isNull();

        nodesRelay.start();
        awaitEverythingPublished();
        OutboxOverview caughtUp = outbox.overview();
        assertThat(caughtUp.backlog()).isZero();
        assertThat(caughtUp.lag()).isEmpty();
        assertThat(caughtUp.publishedLastMinute()).isGreaterThanOrEqualTo(1 + leased.size());
    }

    @Test
    void eventsPurgedAfterTheRetentionAreCountedNotShown() {
        OperationId operationId = claimOne();
        awaitEverythingPublished();
        nodesRelay.stop();
        lifecycle.lease("outbox-it", 1000, Duration.ofMinutes(10));
        // as if published one retention and an hour ago: the row and the records of the batches around it
        String age = properties.retention().plusHours(1).toMillis() + " milliseconds";
        jdbc.update("UPDATE outbox_event SET published_at = now() - ?::interval WHERE operation_id = ? AND sequence = 1",
                age, operationId.value());
        jdbc.update("UPDATE outbox_publication SET published_at = now() - ?::interval WHERE (SELECT id FROM outbox_event "
                + "WHERE operation_id = ? AND sequence = 1) BETWEEN first_id AND last_id", age, operationId.value());
        assertThat(rows.purge(properties.retention(), 1000)).isGreaterThanOrEqualTo(1);

        OperationEvents events = outbox.events(operationId).orElseThrow();

        assertThat(events.purged()).isEqualTo(1);
        assertThat(events.retention()).isEqualTo(properties.retention());
        assertThat(events.events()).extracting(OperationEvent::sequence, OperationEvent::type)
                .containsExactly(tuple(2, EventType.OperationRunning));
    }

    @Test
    void anUnknownOperationHasNoEvents() {
        assertThat(outbox.events(OperationId.random())).isEmpty();
    }

    @Test
    void onlySupportAndAdminMayReadTheOutbox() {
        OperationId operationId = claimOne();
        signIn("ROLE_ADMIN");
        assertThat(outbox.events(operationId)).isPresent();

        signIn("ROLE_DEVICE");
        assertThatThrownBy(() -> outbox.overview()).isInstanceOf(AccessDeniedException.class);
        assertThatThrownBy(() -> outbox.events(operationId)).isInstanceOf(AccessDeniedException.class);

        SecurityContextHolder.clearContext();
        assertThatThrownBy(() -> outbox.overview()).isInstanceOf(AuthenticationCredentialsNotFoundException.class);
    }

    private OperationId claimOne() {
        return Operations.claim(claims, new SubjectId("outbox-service-" + UUID.randomUUID()), 1).getFirst();
    }

    private void awaitEverythingPublished() {
        await().atMost(PUBLISH_TIMEOUT).until(() -> jdbc.queryForObject(
                "SELECT count(*) FROM outbox_event WHERE published_at IS NULL", Long.class) == 0);
    }

    private Instant column(String column, OperationId operationId, int sequence) {
        return jdbc.queryForObject("SELECT " + column + " FROM outbox_event WHERE operation_id = ? AND sequence = ?",
                Timestamp.class, operationId.value(), sequence).toInstant();
    }

    private static void signIn(String role) {
        SecurityContextHolder.getContext().setAuthentication(UsernamePasswordAuthenticationToken.authenticated("support",
                "n/a", AuthorityUtils.createAuthorityList(role)));
    }
}
