package dev.opledger.node.security;

import dev.opledger.audit.AuditService;
import org.jspecify.annotations.Nullable;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.LockedException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;

/**
 * Username and password sign-in (the console's form and the actuator's basic auth) behind the
 * {@link SignInThrottle}. A locked username or address is refused before the password is looked
 * at, the right password included, with the same answer as a wrong password (the form's
 * {@code /login?error}, basic auth's 401): nobody learns from it whether a user exists. The
 * refusal is a {@link LockedException}, which the sign-in auditor records as SIGN_IN_THROTTLED;
 * the failure that starts a lock is audited here as SIGN_IN_LOCKED.
 */
final class ThrottledSignIn implements AuthenticationProvider {

    static final String LOCKED_ACTION = "SIGN_IN_LOCKED";

    private final AuthenticationProvider passwords;
    private final SignInThrottle throttle;
    private final AuditService audit;

    ThrottledSignIn(AuthenticationProvider passwords, SignInThrottle throttle, AuditService audit) {
        this.passwords = passwords;
        this.throttle = throttle;
        this.audit = audit;
    }

    @Override
    public @Nullable Authentication authenticate(Authentication attempt) {
        String username = attempt.getName();
        String address = AuditService.clientAddress(attempt);
        var lock = throttle.lock(username, address);
        if (lock.isPresent()) {
            // the message reaches the audit log only: the form and basic auth show none
            throw new LockedException(lock.get().describe());
        }
        try {
            Authentication signedIn = passwords.authenticate(attempt);
            throttle.succeeded(username);
            return signedIn;
        } catch (BadCredentialsException wrong) {
            for (var started : throttle.failed(username, address)) {
                audit.record(username, LOCKED_ACTION, started.kind() + ":" + started.key(), started.describe(), address);
            }
            throw wrong;
        }
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return UsernamePasswordAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
