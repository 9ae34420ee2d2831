package dev.opledger.node.security;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Failed console sign-ins counted per username and per client address, and the temporary locks
 * they lead to ({@link SignInThrottleProperties}). Unknown usernames are counted and locked like
 * known ones, so a lock tells nothing about whether a user exists. Thread-safe; memory bounded.
 */
final class SignInThrottle {

    /** A lock on a username or a client address, until {@code until}, after {@code failures}. */
    record Lock(String kind, String key, Instant until, int failures) {

        String describe() {
            return kind + " " + key + " locked until " + until + " after " + failures + " failed sign-ins";
        }
    }

    private record Failures(int count, @Nullable Instant lockedUntil) {
    }

    static final int MAX_KEY_LENGTH = 200;

    private final SignInThrottleProperties settings;
    private final Clock clock;
    private final Cache<String, Failures> users;
    private final Cache<String, Failures> addresses;

    SignInThrottle(SignInThrottleProperties settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
        this.users = cache(settings, clock);
        this.addresses = cache(settings, clock);
    }

    private static Cache<String, Failures> cache(SignInThrottleProperties settings, Clock clock) {
        // the cache's own time is the clock's, so failures are forgotten on the same time line
        Ticker ticker = () -> Duration.between(Instant.EPOCH, clock.instant()).toNanos();
        return Caffeine.newBuilder().ticker(ticker).expireAfter(new ForgetAfterWindow(settings.window(), clock))
                .maximumSize(settings.maxTracked()).build();
    }

    /** For tests: usernames and addresses remembered now. */
    long tracked() {
        users.cleanUp();
        addresses.cleanUp();
        return users.estimatedSize() + addresses.estimatedSize();
    }

    /** Failures are forgotten {@code window} after the last one, or after the lock it started ended. */
    private record ForgetAfterWindow(Duration window, Clock clock) implements Expiry<String, Failures> {

        @Override
        public long expireAfterCreate(String key, Failures failures, long currentTime) {
            Instant now = clock.instant();
            Instant from = failures.lockedUntil() != null && failures.lockedUntil().isAfter(now)
                    ? failures.lockedUntil() : now;
            return Duration.between(now, from.plus(window)).toNanos();
        }

        @Override
        public long expireAfterUpdate(String key, Failures failures, long currentTime, long currentDuration) {
            return expireAfterCreate(key, failures, currentTime);
        }

        @Override
        public long expireAfterRead(String key, Failures failures, long currentTime, long currentDuration) {
            return currentDuration;
        }
    }

    /** The lock that refuses a sign-in as {@code username} from {@code address} now, if any. */
    Optional<Lock> lock(String username, @Nullable String address) {
        Instant now = clock.instant();
        return Stream.of(locked("user", user(username), users, now), locked("address", address, addresses, now))
                .flatMap(Optional::stream).findFirst();
    }

    /** Counts a failed sign-in; returns the locks it started (none, the username's, the address's or both). */
    List<Lock> failed(String username, @Nullable String address) {
        Instant now = clock.instant();
        List<Lock> started = new ArrayList<>(2);
        count("user", user(username), users, settings.maxFailuresPerUser(), now).ifPresent(started::add);
        if (address != null) {
            count("address", address, addresses, settings.maxFailuresPerAddress(), now).ifPresent(started::add);
        }
        return started;
    }

    /** A sign-in succeeded: the username's failures are forgotten (the address's are not). */
    void succeeded(String username) {
        users.invalidate(user(username));
    }

    private static Optional<Lock> locked(String kind, @Nullable String key, Cache<String, Failures> cache,
            Instant now) {
        Failures failures = key == null ? null : cache.getIfPresent(key);
        if (failures == null || failures.lockedUntil() == null || !now.isBefore(failures.lockedUntil())) {
            return Optional.empty();
        }
        return Optional.of(new Lock(kind, key, failures.lockedUntil(), failures.count()));
    }

    private Optional<Lock> count(String kind, String key, Cache<String, Failures> cache, int max, Instant now) {
        Failures counted = cache.asMap().compute(key, (k, before) -> {
            int count = before == null ? 1 : before.count() + 1;
            return new Failures(count, count < max ? null : now.plus(lockFor(count - max)));
        });
        return counted.lockedUntil() == null ? Optional.empty()
                : Optional.of(new Lock(kind, key, counted.lockedUntil(), counted.count()));
    }

    /** The lock after {@code beyond} failures past the limit: {@code lock} doubled each time, at most {@code maxLock}. */
    private Duration lockFor(int beyond) {
        Duration lock = settings.lock();
        for (int i = 0; i < beyond && lock.compareTo(settings.maxLock()) < 0; i++) {
            lock = lock.multipliedBy(2);
        }
        return lock.compareTo(settings.maxLock()) > 0 ? settings.maxLock() : lock;
    }

    /**
     * Spring's in-memory users ignore case: so does the count, or ALICE would get fresh tries. Cut
     * to {@value #MAX_KEY_LENGTH} characters, so a long name cannot make an entry large.
     */
    private static String user(String username) {
        String key = username.toLowerCase(Locale.ROOT);
        return key.length() > MAX_KEY_LENGTH ? key.substring(0, MAX_KEY_LENGTH) : key;
    }
}
