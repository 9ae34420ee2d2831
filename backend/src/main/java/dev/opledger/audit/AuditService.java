package dev.opledger.audit;

import dev.opledger.audit.internal.AuditEntry;
import dev.opledger.audit.internal.AuditEntryRepository;
import org.jspecify.annotations.Nullable;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.authentication.WebAuthenticationDetails;
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

    /** Where the person signed in from, as the sign-in audit entries have it; null outside a web sign-in. */
    public static @Nullable String clientAddress(Authentication who) {
        return who.getDetails() instanceof WebAuthenticationDetails details ? details.getRemoteAddress() : null;
    }

    @Transactional(propagation = Propagation.REQUIRED)
    public void record(String actor, String action, @Nullable String target, @Nullable String detail,
            @Nullable String clientAddress) {
        entries.save(new AuditEntry(actor, action, target, detail, clientAddress));
    }
}
