package dev.opledger.audit.internal;

import dev.opledger.audit.AuditService;
import org.jspecify.annotations.Nullable;
import org.springframework.context.event.EventListener;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.authentication.event.AbstractAuthenticationFailureEvent;
import org.springframework.security.authentication.event.AuthenticationFailureLockedEvent;
import org.springframework.security.authentication.event.InteractiveAuthenticationSuccessEvent;
import org.springframework.security.authentication.event.LogoutSuccessEvent;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Component;

/**
 * Audits console sign-ins, failed and throttled sign-ins, and sign-outs. Only username/password attempts: API
 * bearer tokens are machine traffic and would drown the log.
 */
@Component
class SignInAuditor {

    private final AuditService audit;

    SignInAuditor(AuditService audit) {
        this.audit = audit;
    }

    @EventListener
    void signedIn(InteractiveAuthenticationSuccessEvent event) {
        audit.record(event.getAuthentication().getName(), "SIGN_IN", null, null, address(event.getAuthentication()));
    }

    /**
     * A wrong password or unknown user is SIGN_IN_FAILED; an attempt refused because its username
     * or address is locked after too many failures is SIGN_IN_THROTTLED, with the lock it met.
     */
    @EventListener
    void signInFailed(AbstractAuthenticationFailureEvent event) {
        if (event.getAuthentication() instanceof UsernamePasswordAuthenticationToken attempt) {
            if (event instanceof AuthenticationFailureLockedEvent) {
                audit.record(attempt.getName(), "SIGN_IN_THROTTLED", null, event.getException().getMessage(),
                        address(attempt));
            } else {
                audit.record(attempt.getName(), "SIGN_IN_FAILED", null, event.getException().getClass().getSimpleName(),
                        address(attempt));
            }
        }
    }

    @EventListener
    void signedOut(LogoutSuccessEvent event) {
        audit.record(event.getAuthentication().getName(), "SIGN_OUT", null, null, address(event.getAuthentication()));
    }

    private static @Nullable String address(Authentication authentication) {
        return AuditService.clientAddress(authentication);
    }
}
