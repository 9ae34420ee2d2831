package dev.opledger.outbox.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.claim.ClaimService;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.EventsIntegrationTest;
import dev.opledger.testing.Operations;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code opledger.events.linger}: after a batch that was not full the relay waits, so the rows
 * of state changes made meanwhile go out in one Kafka transaction; a full batch does not wait, so a
 * backlog drains at full speed. A batch is one transaction marking its rows, so the rows of one
 * batch share their {@code published_at}.
 */
@EventsIntegrationTest
class RelayLingerIT {

    private static final Duration LINGER = Duration.ofSeconds(2);
    /** Longer than the test profile's, which a linger must stay well inside. */
    private static final Duration LEASE = Duration.ofSeconds(20);

    @Autowired
    ApplicationContext node;

    @Autowired
    OutboxRelay nodesRelay;

    @Autowired
    EventsProperties properties;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    ClaimService claims;

    OutboxRelay lingering;

    @BeforeEach
    void stopTheNodesRelay() {
        nodesRelay.stop();
    }

    @AfterEach
    void restartTheNodesRelay() {
        if (lingering != null) {
            lingering.stop();
        }
        nodesRelay.start();
    }

    private void startRelay(int batchSize) {
        var relays = TestRelays.of(node);
        lingering = relays.relay("relay-lingering", relays.settings(batchSize, LINGER, LEASE));
        lingering.start();
    }

    private List<Timestamp> publishedAt(List<OperationId> ids) {
        return jdbc.queryForList("SELECT published_at FROM outbox_event WHERE operation_id = ANY(?::uuid[]) ORDER BY id",
                Timestamp.class, "{" + String.join(",", ids.stream().map(OperationId::toString).toList()) + "}");
    }

    private void awaitPublished(List<OperationId> ids) {
        await().atMost(Duration.ofSeconds(30)).until(() -> publishedAt(ids).stream().allMatch(at -> at != null));
    }

    @Test
    void changesMadeWhileTheRelayLingersGoOutInOneBatch() throws InterruptedException {
        var subject = new SubjectId("linger-" + UUID.randomUUID());
        startRelay(properties.batchSize());
        List<OperationId> first = Operations.claim(claims, subject, 1);
        awaitPublished(first);

        // three claims, each after the idle relay's poll interval: without the linger each would
        // be a batch of its own
        List<OperationId> later = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Thread.sleep(properties.pollInterval().multipliedBy(2).toMillis());
            later.addAll(Operations.claim(claims, subject, 1));
        }
        awaitPublished(later);

        assertThat(publishedAt(later).stream().distinct()).as("one batch").hasSize(1);
        assertThat(publishedAt(later).getFirst()).isAfter(publishedAt(first).getFirst());
    }

    @Test
    void aFullBatchDoesNotWait() {
        List<OperationId> backlog = Operations.claim(claims, new SubjectId("linger-full-" + UUID.randomUUID()), 6);
        startRelay(2);
        awaitPublished(backlog);

        List<Timestamp> at = publishedAt(backlog);
        assertThat(at.stream().distinct().count()).as("batches of two at most").isGreaterThanOrEqualTo(3);
        assertThat(Duration.between(at.getFirst().toInstant(), at.getLast().toInstant()))
                .as("none of them lingered").isLessThan(LINGER);
    }
}
