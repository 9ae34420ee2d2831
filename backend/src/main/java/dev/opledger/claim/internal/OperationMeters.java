package dev.opledger.claim.internal;

import dev.opledger.operation.OperationStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code opledger.operations{status}}: how many operations of the ledger stand in each status,
 * NEEDS_REVIEW and AWAITING_APPROVAL being the ones a person has to act on. Counted in the table
 * when scraped, so the claim's path is untouched and a scrape right after a claim sees it.
 */
@Component
class OperationMeters implements MeterBinder {

    private final JdbcTemplate jdbc;

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

    private long count(OperationStatus status) {
        Long count = jdbc.queryForObject("SELECT count(*) FROM operation WHERE status = ?", Long.class, status.name());
        return count == null ? 0 : count;
    }
}
