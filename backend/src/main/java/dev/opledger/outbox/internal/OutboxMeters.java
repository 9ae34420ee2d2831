package dev.opledger.outbox.internal;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import org.springframework.stereotype.Component;

/**
 * The outbox as the console's Outbox view shows it, for alerts: {@code opledger.outbox.backlog}
 * (events not yet on Kafka) and {@code opledger.outbox.relay.lag} (seconds the oldest of them has
 * waited; 0 with none waiting). Both read the table when scraped; the relay is untouched.
 */
@Component
class OutboxMeters implements MeterBinder {

    private final OutboxReader reader;

    OutboxMeters(OutboxReader reader) {
        this.reader = reader;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("opledger.outbox.backlog", reader, outbox -> outbox.overview().backlog())
                .description("Outbox events not yet published to Kafka")
                .register(registry);
        Gauge.builder("opledger.outbox.relay.lag", reader,
                        outbox -> outbox.overview().lag().orElse(Duration.ZERO).toMillis() / 1000.0)
                .description("How long the oldest unpublished outbox event has waited")
                .baseUnit("seconds")
                .register(registry);
    }
}
