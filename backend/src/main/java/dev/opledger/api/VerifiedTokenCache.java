package dev.opledger.api;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.JwtValidationException;

/**
 * Remembers tokens that verified, by their exact text (signature included), until they expire
 * or for at most {@link #MAX_AGE}. An app sends the same token with every attempt, and decoding
 * it again (parse, MAC or signature check, claim conversion) was a large share of a claim's CPU.
 * A token that failed is never cached, and a cached one is refused once it has expired.
 */
class VerifiedTokenCache implements JwtDecoder {

    static final Duration MAX_AGE = Duration.ofMinutes(5);
    static final int MAX_TOKENS = 100_000;

    private final JwtDecoder delegate;
    private final Clock clock;
    private final Cache<String, Jwt> verified;

    VerifiedTokenCache(JwtDecoder delegate, Clock clock) {
        this.delegate = delegate;
        this.clock = clock;
        this.verified = Caffeine.newBuilder()
                .maximumSize(MAX_TOKENS)
                .expireAfter(Expiry.creating((String token, Jwt jwt) -> lifetime(jwt)))
                .build();
    }

    @Override
    public Jwt decode(String token) throws JwtException {
        Jwt known = verified.getIfPresent(token);
        if (known != null) {
            if (expired(known)) {
                verified.invalidate(token);
                throw new JwtValidationException("the token has expired",
                        List.of(new OAuth2Error(OAuth2ErrorCodes.INVALID_TOKEN, "the token has expired", null)));
            }
            return known;
        }
        Jwt jwt = delegate.decode(token);
        verified.put(token, jwt);
        return jwt;
    }

    private boolean expired(Jwt jwt) {
        return jwt.getExpiresAt() != null && !clock.instant().isBefore(jwt.getExpiresAt());
    }

    private Duration lifetime(Jwt jwt) {
        Instant expiresAt = jwt.getExpiresAt();
        if (expiresAt == null) {
            return MAX_AGE;
        }
        Duration left = Duration.between(clock.instant(), expiresAt);
        return left.isNegative() ? Duration.ZERO : left.compareTo(MAX_AGE) < 0 ? left : MAX_AGE;
    }
}
