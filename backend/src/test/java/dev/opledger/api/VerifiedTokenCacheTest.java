package dev.opledger.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;

class VerifiedTokenCacheTest {

    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    private final AtomicInteger decodes = new AtomicInteger();

    private JwtDecoder decoderExpiringAt(Instant expiresAt) {
        return token -> {
            decodes.incrementAndGet();
            if (token.startsWith("bad")) {
                throw new BadJwtException("bad signature");
            }
            return Jwt.withTokenValue(token).header("alg", "HS256").subject("alice").expiresAt(expiresAt).build();
        };
    }

    private static Clock at(Instant instant) {
        return Clock.fixed(instant, ZoneOffset.UTC);
    }

    @Test
    void decodesATokenOnceWhileItIsValid() {
        var cache = new VerifiedTokenCache(decoderExpiringAt(NOW.plus(Duration.ofHours(1))), at(NOW));

        var first = cache.decode("token-a");
        var second = cache.decode("token-a");

        assertThat(second).isSameAs(first);
        assertThat(decodes).hasValue(1);
    }

    @Test
    void neverRemembersAFailure() {
        var cache = new VerifiedTokenCache(decoderExpiringAt(NOW.plus(Duration.ofHours(1))), at(NOW));

        assertThatThrownBy(() -> cache.decode("bad-token")).isInstanceOf(JwtException.class);
        assertThatThrownBy(() -> cache.decode("bad-token")).isInstanceOf(JwtException.class);
        assertThat(decodes).hasValue(2);
    }

    @Test
    void refusesARememberedTokenOnceItHasExpired() {
        var clock = new MutableClock(NOW);
        var cache = new VerifiedTokenCache(decoderExpiringAt(NOW.plusSeconds(30)), clock);
        cache.decode("token-b");

        clock.now = NOW.plusSeconds(30);

        assertThatThrownBy(() -> cache.decode("token-b")).isInstanceOf(JwtException.class)
                .hasMessageContaining("expired");
        assertThat(decodes).hasValue(1);
    }

    private static final class MutableClock extends Clock {
        Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
