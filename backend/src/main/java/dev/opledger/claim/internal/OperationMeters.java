package dev.opledger.claim.internal;

import dev.opledger.operation.OperationStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code opledger.operations{status}}: how many operations of the ledger stand in each status,
 * NEEDS_REVIEW and AWAITING_APPROVAL being the ones a person has to act on. Read from the table
 * when scraped (one query serves every status of a scrape), so the claim's path is untouched.
 */
@Component
class OperationMeters implements MeterBinder {

    /** Gauges of one scrape are read one after the other: they share one count. */
    private static final long REUSE_NANOS = Duration.ofSeconds(1).toNanos();

    private final JdbcTemplate jdbc;
    private Map<OperationStatus, Long> counts = Map.of();
    private long countedAt;
    private boolean counted;

    OperationMeters(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (OperationStatus status : OperationStatus.values()) {
            Gauge.builder("opledger.operations", this, meters -> meters.count(status))
                    .description("Operations of the ledger in this status")
                    .tag("status", status.name())
                    .register(registry);
        }
    }

    private synchronized double count(OperationStatus status) {
        // the monotonic clock: a test's frozen Clock bean must not freeze the count
        long now = System.nanoTime();
        if (!counted || now - countedAt > REUSE_NANOS) {
            Map<OperationStatus, Long> byStatus = new EnumMap<>(OperationStatus.class);
            jdbc.query("SELECT status, count(*) AS n FROM operation GROUP BY status",
                    row -> { byStatus.put(OperationStatus.valueOf(row.getString("status")), row.getLong("n")); });
            counts = byStatus;
            countedAt = now;
            counted = true;
        }
        return counts.getOrDefault(status, 0L);
    }
}
