package dev.opledger.ui.outbox;

import dev.opledger.outbox.OutboxOverview;
import dev.opledger.ui.Formats;

/** How the outbox view words the overview's figures. */
final class OutboxText {

    private OutboxText() {
    }

    /** "none waiting", or "1 min 30 s (the oldest unpublished event occurred …)". */
    static String lag(OutboxOverview overview) {
        if (overview.oldestUnpublished() == null) {
            return "none waiting";
        }
        return Formats.duration(overview.lag().orElseThrow()) + " (the oldest unpublished event occurred "
                + Formats.instant(overview.oldestUnpublished()) + ")";
    }

    /** "pid@host/ab12cd34 (this node)", or "no node has held it yet". */
    static String holder(OutboxOverview overview) {
        OutboxOverview.Relay relay = overview.relay();
        if (relay == null) {
            return "no node has held it yet";
        }
        return relay.holder().equals(overview.localRelay()) ? relay.holder() + " (this node)" : relay.holder();
    }

    /** Whether the holder has it, and until when. */
    static String lease(OutboxOverview overview) {
        OutboxOverview.Relay relay = overview.relay();
        if (relay == null) {
            return "—";
        }
        String epoch = "epoch " + relay.epoch();
        if (relay.expiresAt() == null) {
            return "given up (its node stopped), " + epoch + ": the next node that tries takes over";
        }
        if (relay.current()) {
            return "held, " + epoch + ", renewed with every batch; the lease runs until " + Formats.instant(relay.expiresAt());
        }
        return "expired at " + Formats.instant(relay.expiresAt()) + ", " + epoch
                + ": the holder stopped renewing it; the next node that tries takes over";
    }

    /** Whether this node runs a relay, and its name. */
    static String local(OutboxOverview overview) {
        if (overview.localRelay() == null) {
            return "off on this node (opledger.events.enabled=false): another node's relay publishes";
        }
        return "on: this node's relay is " + overview.localRelay();
    }

    static String lastPublished(OutboxOverview overview) {
        return overview.lastPublished() == null ? "—" : Formats.instant(overview.lastPublished());
    }
}
