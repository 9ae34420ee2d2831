package dev.opledger.node.security;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How failed console sign-ins are throttled ({@code opledger.console.sign-in}). A username is
 * locked on every address, and a client address for every username, once it reaches its number of
 * failures; each further failure after a lock ended locks again for twice as long, up to
 * {@code maxLock}. Failures are forgotten {@code window} after the last one (or after the lock it
 * started ended); a sign-in that succeeds forgets the username's (not the address's).
 *
 * @param maxFailuresPerUser failures of one username (any address) that lock it
 * @param maxFailuresPerAddress failures from one client address (any username) that lock it
 * @param lock the first lock's length; it doubles with each failure after that
 * @param maxLock the longest lock
 * @param window how long failures are remembered after the last one or the end of its lock
 * @param maxTracked usernames and addresses remembered each, at most: memory stays bounded however
 *     many an attacker tries (the least used are forgotten first)
 */
@ConfigurationProperties("opledger.console.sign-in")
record SignInThrottleProperties(
        @DefaultValue("5") int maxFailuresPerUser,
        @DefaultValue("20") int maxFailuresPerAddress,
        @DefaultValue("1m") Duration lock,
        @DefaultValue("15m") Duration maxLock,
        @DefaultValue("15m") Duration window,
        @DefaultValue("10000") int maxTracked) {

    SignInThrottleProperties {
        if (maxFailuresPerUser < 1 || maxFailuresPerAddress < 1 || maxTracked < 1) {
            throw new IllegalArgumentException("opledger.console.sign-in: max-failures-per-user, "
                    + "max-failures-per-address and max-tracked must be at least 1");
        }
        if (!lock.isPositive() || maxLock.compareTo(lock) < 0 || !window.isPositive()) {
            throw new IllegalArgumentException("opledger.console.sign-in: give 0 < lock <= max-lock and a positive window");
        }
    }
}
