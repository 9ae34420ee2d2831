package dev.opledger.api;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Enumeration;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.server.resource.BearerTokenErrors;
import org.springframework.security.oauth2.server.resource.web.BearerTokenResolver;

/**
 * Reads the bearer token from the {@code Authorization} header only, with the rules of Spring
 * Security's {@code DefaultBearerTokenResolver} in its default settings (RFC 6750 token68
 * characters, the scheme in any case, malformed tokens refused) but checked by a loop: the
 * default's regular expression over a few hundred characters of JWT was a visible share of a
 * claim's CPU. Two {@code Authorization} headers are refused (the default read only the first):
 * which credential a request carries must not depend on header order.
 */
class HeaderBearerTokenResolver implements BearerTokenResolver {

    private static final String SCHEME = "bearer";

    @Override
    public @Nullable String resolve(HttpServletRequest request) {
        Enumeration<String> headers = request.getHeaders(HttpHeaders.AUTHORIZATION);
        if (headers == null || !headers.hasMoreElements()) {
            return null;
        }
        String authorization = headers.nextElement();
        if (headers.hasMoreElements()) {
            throw new OAuth2AuthenticationException(BearerTokenErrors.invalidToken("send exactly one Authorization header"));
        }
        if (!authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            return null;
        }
        if (authorization.length() < SCHEME.length() + 2 || authorization.charAt(SCHEME.length()) != ' ') {
            throw malformed();
        }
        String token = authorization.substring(SCHEME.length() + 1);
        if (!isToken68(token)) {
            throw malformed();
        }
        return token;
    }

    /** {@code [a-zA-Z0-9-._~+/]+=*}: at least one token character, then only padding. */
    static boolean isToken68(String token) {
        int end = token.length();
        while (end > 0 && token.charAt(end - 1) == '=') {
            end--;
        }
        if (end == 0) {
            return false;
        }
        for (int i = 0; i < end; i++) {
            char c = token.charAt(i);
            boolean allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/';
            if (!allowed) {
                return false;
            }
        }
        return true;
    }

    private static OAuth2AuthenticationException malformed() {
        return new OAuth2AuthenticationException(BearerTokenErrors.invalidToken("Bearer token is malformed"));
    }
}
