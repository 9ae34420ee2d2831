package dev.opledger.node.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SignInThrottleTest {

    private static final String HOME = "192.0.2.1";
    private static final String ELSEWHERE = "198.51.100.7";

    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
    private final SignInThrottle throttle = new SignInThrottle(
            new SignInThrottleProperties(5, 20, Duration.ofMinutes(1), Duration.ofMinutes(15), Duration.ofMinutes(15),
                    1000),
            clock);

    private void fail(String username, String address, int times) {
        for (int i = 0; i < times; i++) {
            throttle.failed(username, address);
        }
    }

    @Test
    void aUsernameIsLockedOnEveryAddressAtItsFifthFailureUntilTheLockEnds() {
        fail("alice", HOME, 4);
        assertThat(throttle.lock("alice", HOME)).isEmpty();

        assertThat(throttle.failed("alice", HOME)).singleElement().satisfies(lock -> {
            assertThat(lock.kind()).isEqualTo("user");
            assertThat(lock.until()).isEqualTo(clock.instant().plus(Duration.ofMinutes(1)));
        });

        assertThat(throttle.lock("alice", HOME)).isPresent();
        assertThat(throttle.lock("ALICE", ELSEWHERE)).as("the user's lock holds on every address").isPresent();
        assertThat(throttle.lock("bob", HOME)).as("four more failures do not lock the address").isEmpty();
        clock.advance(Duration.ofSeconds(59));
        assertThat(throttle.lock("alice", HOME)).isPresent();
        clock.advance(Duration.ofSeconds(1));
        assertThat(throttle.lock("alice", HOME)).isEmpty();
    }

    @Test
    void eachFailureAfterALockLocksTwiceAsLongUpToTheLongestLock() {
        fail("alice", HOME, 5);
        long before = 1;
        for (long minutes : new long[] {2, 4, 8, 15, 15}) {
            clock.advance(Duration.ofMinutes(before)); // the lock before has just ended
            assertThat(throttle.lock("alice", HOME)).isEmpty();
            assertThat(throttle.failed("alice", HOME)).singleElement()
                    .satisfies(lock -> assertThat(lock.until()).isEqualTo(clock.instant().plus(Duration.ofMinutes(minutes))));
            before = minutes;
        }
    }

    @Test
    void anAddressIsLockedForEveryUsernameAtItsTwentiethFailure() {
        for (int user = 0; user < 19; user++) {
            throttle.failed("user-" + user, HOME);
        }
        assertThat(throttle.lock("admin", HOME)).isEmpty();

        assertThat(throttle.failed("user-19", HOME)).extracting(SignInThrottle.Lock::kind).containsExactly("address");

        assertThat(throttle.lock("admin", HOME)).hasValueSatisfying(lock -> assertThat(lock.kind()).isEqualTo("address"));
        assertThat(throttle.lock("admin", ELSEWHERE)).isEmpty();
    }

    @Test
    void aLongUsernameIsCountedUnderItsFirstCharacters() {
        String name = "a".repeat(SignInThrottle.MAX_KEY_LENGTH);
        fail(name + "1", HOME, 3);
        fail(name + "2", HOME, 2);

        assertThat(throttle.lock(name + "3", ELSEWHERE)).hasValueSatisfying(lock ->
                assertThat(lock.key()).hasSize(SignInThrottle.MAX_KEY_LENGTH));
    }

    @Test
    void aSuccessForgetsTheUsernamesFailuresNotTheAddresss() {
        fail("alice", HOME, 4);
        throttle.succeeded("Alice");
        fail("alice", HOME, 4);
        assertThat(throttle.lock("alice", HOME)).isEmpty();

        fail("bob", HOME, 12);
        assertThat(throttle.lock("carol", HOME)).as("8 + 12 failures from the address").isPresent();
    }

    @Test
    void failuresAreForgottenAWindowAfterTheLastOne() {
        fail("alice", HOME, 4);
        clock.advance(Duration.ofMinutes(15).minusSeconds(1));
        fail("alice", HOME, 1);
        assertThat(throttle.lock("alice", HOME)).as("five within the window").isPresent();

        fail("bob", HOME, 4);
        clock.advance(Duration.ofMinutes(15));
        fail("bob", HOME, 4);
        assertThat(throttle.lock("bob", HOME)).isEmpty();
    }

    @Test
    void memoryStaysBoundedWhenManyNamesAndAddressesAreTried() {
        for (int i = 0; i < 5000; i++) {
            throttle.failed("spray-" + i + "-" + "x".repeat(1000), "10.0." + (i / 250) + "." + (i % 250));
        }

        assertThat(throttle.tracked()).isLessThanOrEqualTo(2 * 1000);
    }

    @Test
    void settingsOutOfOrderAreRefused() {
        assertThatThrownBy(() -> new SignInThrottleProperties(5, 20, Duration.ofMinutes(20), Duration.ofMinutes(15),
                Duration.ofMinutes(15), 1000)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SignInThrottleProperties(0, 20, Duration.ofMinutes(1), Duration.ofMinutes(15),
                Duration.ofMinutes(15), 1000)).isInstanceOf(IllegalArgumentException.class);
    }
}
