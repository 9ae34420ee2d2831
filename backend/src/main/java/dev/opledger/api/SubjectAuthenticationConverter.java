package dev.opledger.api;

import dev.opledger.operation.SubjectId;
import java.util.List;
import org.springframework.core.convert.converter.Converter;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;

/** Makes the token's {@code sub} the subject; a token without a usable one is refused (401). */
class SubjectAuthenticationConverter implements Converter<Jwt, AbstractAuthenticationToken> {

    @Override
    public AbstractAuthenticationToken convert(Jwt jwt) {
        String subject = jwt.getSubject();
        if (subject == null || !SubjectId.isValid(subject)) {
            throw new InvalidBearerTokenException("the token's sub claim must be 1 to "
                    + SubjectId.MAX_LENGTH + " characters of Unicode text without control characters");
        }
        return new JwtAuthenticationToken(jwt, List.of(), subject);
    }
}
