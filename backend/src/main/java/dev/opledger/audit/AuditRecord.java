package dev.opledger.audit;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** One audited console action. */
public record AuditRecord(
        Instant occurredAt, String actor, String action, @Nullable String target, @Nullable String detail,
        @Nullable String clientAddress) {
}
