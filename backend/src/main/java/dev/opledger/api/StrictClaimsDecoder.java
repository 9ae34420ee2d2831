package dev.opledger.api;

import dev.opledger.operation.IJson;
import dev.opledger.operation.MalformedCommandException;
import dev.opledger.operation.SubjectId;
import java.util.Base64;
import java.util.List;
import tools.jackson.databind.JsonNode;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.JwtValidationException;

/**
 * Verifies a token with the issuer's decoder, then reads its claims again from the raw payload,
 * strictly (I-JSON: {@link IJson}), so the subject is exactly the token's {@code sub} or the token
 * is refused. The JWT library decodes the payload leniently: invalid UTF-8 becomes U+FFFD, an
 * escaped lone surrogate survives (and the database would store it as {@code ?}), and a number
 * {@code sub} is turned into text; each would let one token read another subject's operations.
 * A token without {@code exp} is refused unless {@code expiryRequired} is off (the local profile).
 */
final class StrictClaimsDecoder implements JwtDecoder {

    private final JwtDecoder delegate;
    private final boolean expiryRequired;

    StrictClaimsDecoder(JwtDecoder delegate, boolean expiryRequired) {
        this.delegate = delegate;
        this.expiryRequired = expiryRequired;
    }

    @Override
    public Jwt decode(String token) throws JwtException {
        Jwt jwt = delegate.decode(token);
        JsonNode sub = rawClaims(token).get("sub");
        if (sub == null || !sub.isString()) {
            throw refused("the token's sub claim must be a JSON string");
        }
        if (!SubjectId.isValid(sub.asString()) || !sub.asString().equals(jwt.getSubject())) {
            throw refused("the token's sub claim must be 1 to " + SubjectId.MAX_LENGTH
                    + " characters of Unicode text without control characters");
        }
        if (expiryRequired && jwt.getExpiresAt() == null) {
            throw refused("the token must carry an exp claim");
        }
        return jwt;
    }

    private static JsonNode rawClaims(String token) {
        String[] parts = token.split("\\.", -1);
        if (parts.length != 3) {
            throw refused("the token must be a signed JWT (three parts)");
        }
        try {
            JsonNode claims = IJson.read(Base64.getUrlDecoder().decode(parts[1])).tree();
            if (claims.isObject()) {
                return claims;
            }
        } catch (IllegalArgumentException | MalformedCommandException e) {
            // answered below
        }
        throw refused("the token's claims must be a JSON object of UTF-8 Unicode text (RFC 7493 I-JSON)");
    }

    private static JwtValidationException refused(String description) {
        return new JwtValidationException(description,
                List.of(new OAuth2Error(OAuth2ErrorCodes.INVALID_TOKEN, description, null)));
    }
}
