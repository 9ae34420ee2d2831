package dev.opledger.audit;

import dev.opledger.audit.internal.AuditEntry;
import dev.opledger.audit.internal.AuditEntryRepository;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Records console actions. A façade that changes something calls {@link #record} inside its own
 * transaction, so the action and its audit entry commit together.
 */
@Service
public class AuditService {

    private final AuditEntryRepository entries;

    AuditService(AuditEntryRepository entries) {
        this.entries = entries;
    }

    @Transactional(propagation = Propagation.REQUIRED)
    public void record(String actor, String action, @Nullable String target, @Nullable String detail,
            @Nullable String clientAddress) {
        entries.save(new AuditEntry(actor, action, target, detail, clientAddress));
    }
}
