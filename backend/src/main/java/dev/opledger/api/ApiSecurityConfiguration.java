package dev.opledger.api;

import java.time.Clock;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.security.authorization.AuthorizationDecision;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.Authentication;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import org.springframework.security.oauth2.server.resource.web.BearerTokenAuthenticationEntryPoint;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.AccessDeniedHandler;

/**
 * The app-facing API: stateless, every request carries a bearer JWT whose {@code sub} is the
 * subject, read exactly ({@link StrictClaimsDecoder}); outside the local profile the token must
 * carry {@code exp}. CSRF protection is off here on purpose: the API reads no cookies and no
 * session, so a forged cross-site request has no credential to ride on. The console keeps CSRF on.
 */
@Configuration(proxyBeanMethods = false)
class ApiSecurityConfiguration {

    // The MCP server's path and scope property (module mcpserver, which uses api's problem types;
    // named here, not imported, so the two modules do not depend on each other both ways).
    private static final String MCP_ENDPOINT = "/mcp";
    private static final String MCP_REQUIRED_SCOPE = "opledger.mcp-server.required-scope";

    @Bean
    @Order(1)
    SecurityFilterChain apiFilterChain(HttpSecurity http, ProblemResponseWriter problems,
            ObjectProvider<JwtDecoder> decoder, Environment environment) throws Exception {
        // the API's description is public (docs/integrator-guide.md); everything else needs a token
        http.securityMatcher("/v1/**")
                .authorizeHttpRequests(requests -> requests
                        .requestMatchers(HttpMethod.GET, ApiDescriptionController.PATH).permitAll()
                        .anyRequest().authenticated());
        return bearerOnly(http, problems, decoder, environment).build();
    }

    /**
     * The node's MCP server ({@code /mcp}): the same bearer tokens, checked the same way, before a
     * request reaches the MCP transport, so an unauthenticated request gets 401 and never MCP. A
     * deployment that lets only some subjects submit over MCP sets
     * {@code opledger.mcp-server.required-scope}: a token without that scope gets 403.
     */
    @Bean
    @Order(1)
    SecurityFilterChain mcpServerFilterChain(HttpSecurity http, ProblemResponseWriter problems,
            ObjectProvider<JwtDecoder> decoder, Environment environment) throws Exception {
        String requiredScope = environment.getProperty(MCP_REQUIRED_SCOPE, "").strip();
        http.securityMatcher(MCP_ENDPOINT, MCP_ENDPOINT + "/**")
                .authorizeHttpRequests(requests -> {
                    if (requiredScope.isEmpty()) {
                        requests.anyRequest().authenticated();
                    } else {
                        requests.anyRequest().access((authentication, context) ->
                                new AuthorizationDecision(hasScope(authentication.get(), requiredScope)));
                    }
                });
        return bearerOnly(http, problems, decoder, environment).build();
    }

    private static boolean hasScope(Authentication authentication, String scope) {
        if (!(authentication instanceof JwtAuthenticationToken token)) {
            return false;
        }
        Object scopes = token.getToken().getClaims().get("scope");
        if (scopes instanceof String text && List.of(text.split(" ")).contains(scope)) {
            return true;
        }
        Object scp = token.getToken().getClaims().get("scp");
        return scp instanceof Collection<?> list && list.contains(scope);
    }

    private static HttpSecurity bearerOnly(HttpSecurity http, ProblemResponseWriter problems,
            ObjectProvider<JwtDecoder> decoder, Environment environment) throws Exception {
        AuthenticationEntryPoint unauthenticated = unauthenticated(problems);
        JwtDecoder tokens = decoder.getIfAvailable(() -> {
            throw new IllegalStateException("The API has no token issuer: set OPLEDGER_JWT_ISSUER_URI (or "
                    + "spring.security.oauth2.resourceserver.jwt.jwk-set-uri), or run with the local profile.");
        });
        // any JWT tool may mint a local token, and not every one sets exp by default
        boolean expiryRequired = !environment.matchesProfiles("local");
        JwtDecoder strict = new StrictClaimsDecoder(tokens, expiryRequired);
        return http
                .oauth2ResourceServer(resourceServer -> resourceServer
                        .bearerTokenResolver(new HeaderBearerTokenResolver())
                        .jwt(jwt -> jwt.decoder(new VerifiedTokenCache(strict, Clock.systemUTC()))
                                .jwtAuthenticationConverter(new SubjectAuthenticationConverter()))
                        .authenticationEntryPoint(unauthenticated))
                .exceptionHandling(exceptions -> exceptions
                        .authenticationEntryPoint(unauthenticated)
                        .accessDeniedHandler(forbidden(problems)))
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .csrf(AbstractHttpConfigurer::disable)
                .requestCache(AbstractHttpConfigurer::disable)
                .logout(AbstractHttpConfigurer::disable)
                .formLogin(AbstractHttpConfigurer::disable)
                .httpBasic(AbstractHttpConfigurer::disable);
    }

    private static AuthenticationEntryPoint unauthenticated(ProblemResponseWriter problems) {
        var bearer = new BearerTokenAuthenticationEntryPoint();
        return (request, response, failure) -> {
            bearer.commence(request, response, failure); // sets WWW-Authenticate as RFC 6750 says
            int authorizations = Collections.list(request.getHeaders(HttpHeaders.AUTHORIZATION)).size();
            String detail = authorizations == 0 ? "send a bearer token: Authorization: Bearer <JWT>"
                    : authorizations > 1 ? "send exactly one Authorization header"
                    : "the bearer token is not valid (signature, exp, or the sub claim: a string of Unicode text)";
            problems.write(response, ApiProblem.of(ProblemType.UNAUTHENTICATED, detail, null));
        };
    }

    private static AccessDeniedHandler forbidden(ProblemResponseWriter problems) {
        return (request, response, denied) -> problems.write(response,
                ApiProblem.of(ProblemType.FORBIDDEN, "this token may not do that", null));
    }
}
