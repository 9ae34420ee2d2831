package dev.opledger.ui.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.outbox.OutboxOverview;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class OutboxTextTest {

    private static final Instant AT = Instant.parse("2026-11-30T12:00:00Z");

    @Test
    void theLagIsTheAgeOfTheOldestUnpublishedEvent() {
        var overview = overview(AT.minusSeconds(90), null, "node-a");

        assertThat(OutboxText.lag(overview))
                .isEqualTo("1 min 30 s (the oldest unpublished event occurred 2026-11-30 11:58:30.000 UTC)");
        assertThat(OutboxText.lag(overview(null, null, "node-a"))).isEqualTo("none waiting");
    }

    @Test
    void theHolderIsMarkedWhenItIsThisNode() {
        var held = new OutboxOverview.Relay("node-a", 4, AT.plusSeconds(10), true);

        assertThat(OutboxText.holder(overview(null, held, "node-a"))).isEqualTo("node-a (this node)");
        assertThat(OutboxText.holder(overview(null, held, "node-b"))).isEqualTo("node-a");
        assertThat(OutboxText.holder(overview(null, null, "node-b"))).isEqualTo("no node has held it yet");
    }

    @Test
    void theElectionSaysWhetherItIsHeldExpiredOrGivenUp() {
        assertThat(OutboxText.lease(overview(null, new OutboxOverview.Relay("node-a", 4, AT.plusSeconds(10), true), null)))
                .isEqualTo("held, epoch 4, renewed with every batch; the lease runs until 2026-11-30 12:00:10.000 UTC");
        assertThat(OutboxText.lease(overview(null, new OutboxOverview.Relay("node-a", 4, AT.minusSeconds(10), false), null)))
                .startsWith("expired at 2026-11-30 11:59:50.000 UTC, epoch 4");
        assertThat(OutboxText.lease(overview(null, new OutboxOverview.Relay("node-a", 4, null, false), null)))
                .startsWith("given up (its node stopped), epoch 4");
    }

    @Test
    void aNodeWithoutEventsSaysAnotherNodePublishes() {
        assertThat(OutboxText.local(overview(null, null, null))).startsWith("off on this node");
        assertThat(OutboxText.local(overview(null, null, "node-a"))).isEqualTo("on: this node's relay is node-a");
    }

    private static OutboxOverview overview(Instant oldest, OutboxOverview.Relay relay, String localRelay) {
        return new OutboxOverview(AT, oldest == null ? 0 : 1, oldest, 0, null, relay, localRelay);
    }
}
