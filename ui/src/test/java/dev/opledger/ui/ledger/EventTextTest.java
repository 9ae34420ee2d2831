package dev.opledger.ui.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.outbox.EventType;
import dev.opledger.outbox.OperationEvent;
import dev.opledger.outbox.OperationEvents;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class EventTextTest {

    private static final Instant OCCURRED = Instant.parse("2026-11-30T12:34:56.789Z");

    @Test
    void aPublishedEventShowsWhenAndHowLongAfterItsChange() {
        var event = event(null, null, OCCURRED.plusMillis(35));

        assertThat(EventText.published(event)).isEqualTo("2026-11-30 12:34:56.824 UTC (after 35 ms)");
    }

    @Test
    void anEventStillInTheOutboxSaysSo() {
        assertThat(EventText.published(event(null, null, null))).isEqualTo("not yet published");
    }

    @Test
    void aToolEventShowsItsStepAndToolAndTheOperationsOwnADash() {
        assertThat(EventText.step(event("reserve", "reserve_inventory", null))).isEqualTo("reserve: reserve_inventory");
        assertThat(EventText.step(event(null, null, null))).isEqualTo("—");
    }

    @Test
    void purgedEventsAreExplainedAndNoneIsNotMentioned() {
        var seven = Duration.ofDays(7);
        assertThat(EventText.purged(new OperationEvents(List.of(), 0, seven))).isNull();
        assertThat(EventText.purged(new OperationEvents(List.of(), 1, seven)))
                .startsWith("The first event is not shown: published more than 7 d ago");
        assertThat(EventText.purged(new OperationEvents(List.of(), 3, seven)))
                .startsWith("The first 3 events are not shown: published more than 7 d ago");
    }

    private static OperationEvent event(String stepKey, String tool, Instant publishedAt) {
        return new OperationEvent(1, EventType.AgentToolStarted, "STARTED", tool, stepKey, OCCURRED, publishedAt,
                UUID.randomUUID());
    }
}
