package dev.opledger.ui.ledger;

import dev.opledger.outbox.OperationEvent;
import dev.opledger.outbox.OperationEvents;
import dev.opledger.ui.Formats;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/** How the events section words an operation's outbox rows. */
final class EventText {

    static final String NOT_PUBLISHED = "not yet published";

    private EventText() {
    }

    /** "reserve: reserve_inventory" for a tool event; a dash for the operation's own. */
    static String step(OperationEvent event) {
        if (event.stepKey() == null && event.tool() == null) {
            return "—";
        }
        return Formats.orDash(event.stepKey()) + ": " + Formats.orDash(event.tool());
    }

    /** "2026-11-30 12:34:56.789 UTC (after 35 ms)", or {@link #NOT_PUBLISHED}. */
    static String published(OperationEvent event) {
        if (event.publishedAt() == null) {
            return NOT_PUBLISHED;
        }
        return Formats.instant(event.publishedAt()) + " (after "
                + Formats.duration(Duration.between(event.occurredAt(), event.publishedAt())) + ")";
    }

    /** Why the list starts after sequence 1, or null when nothing was purged. */
    static @Nullable String purged(OperationEvents events) {
        if (events.purged() == 0) {
            return null;
        }
        String count = events.purged() == 1 ? "The first event is" : "The first " + events.purged() + " events are";
        return count + " not shown: published more than " + Formats.duration(events.retention())
                + " ago (opledger.events.retention), they were purged from the outbox. The timeline above still has "
                + "the operation's status changes and effects.";
    }
}
