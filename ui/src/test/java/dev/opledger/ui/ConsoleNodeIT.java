package dev.opledger.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.claim.LedgerFilter;
import dev.opledger.claim.LedgerService;
import dev.opledger.testing.ApiClient;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.TestTokens;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.AuthenticationCredentialsNotFoundException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * A full node with the console: the API, the actuator and the console each keep their own
 * security, and Vaadin's catch-all route does not swallow the API's or the actuator's paths.
 */
@NodeIntegrationTest
class ConsoleNodeIT {

    @LocalServerPort
    int port;

    @Autowired
    LedgerService ledger;

    @Autowired
    JdbcTemplate jdbc;

    private ConsoleClient console;

    @BeforeEach
    void console() {
        console = new ConsoleClient(port);
    }

    private final HttpClient http = HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    @AfterEach
    void clearSecurityContext() {
        SecurityContextHolder.clearContext();
    }

    @Test
    void unknownApiPathIsAProblemNotAConsolePage() {
        var response = ApiClient.onPort(port).get(TestTokens.forSubject("user-" + UUID.randomUUID()),
                "/v1/does-not-exist");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(ApiClient.json(response).get("type").asString()).isEqualTo("https://opledger.dev/problems/not-found");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness"})
    void healthProbesAnswerWithoutCredentials(String path) {
        var response = get(path, null);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"UP\"");
    }

    @Test
    void metricsAreForAdminsOnly() {
        assertThat(get("/actuator/metrics", null).statusCode()).isEqualTo(401);
        assertThat(get("/actuator/metrics", basic("support", "support-test")).statusCode()).isEqualTo(403);
        assertThat(get("/actuator/metrics", basic("admin", "admin-test")).statusCode()).isEqualTo(200);
    }

    @Test
    void loginPageIsOpenToAnonymousUsers() {
        var response = get("/login", null);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/html"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/ledger", "/conflicts", "/devices",
            "/stuck-tasks", "/operations/8e7b6d9e-2f4c-4a7e-9b1d-3c5e7f9a1b2c?subject=alice"})
    void anonymousConsoleRequestsAreSentToTheLoginPage(String path) {
        var response = get(path, null);

        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(response.headers().firstValue("Location")).hasValueSatisfying(
                location -> assertThat(URI.create(location).getPath()).isEqualTo("/login"));
    }

    @Test
    void signInIsAuditedAndLogoutWithoutTheCsrfTokenIsRefused() {
        var signIn = console.signIn("support", "support-test");
        assertThat(signIn.statusCode()).isEqualTo(302);
        assertThat(signIn.headers().firstValue("Location")).hasValue(console.url("/"));
        String session = ConsoleClient.session(signIn).orElseThrow();
        assertThat(jdbc.queryForObject("SELECT action FROM console_audit WHERE actor = 'support' ORDER BY id DESC "
                + "LIMIT 1", String.class)).isEqualTo("SIGN_IN");

        var logout = console.post("/logout", "", session);

        assertThat(logout.statusCode()).isEqualTo(403);
        assertThat(console.get("/ledger", session).statusCode()).as("still signed in").isEqualTo(200);
    }

    @Test
    void wrongPasswordIsSentBackToTheLoginPage() {
        var response = console.signIn("support", "wrong");

        assertThat(response.statusCode()).isEqualTo(302);
        assertThat(response.headers().firstValue("Location")).hasValue(console.url("/login?error"));
    }

    /** Login CSRF (issue 8): a sign-in another site makes the browser post must not sign it in. */
    @Test
    void signInWithoutTheCsrfTokenIsRefusedAndSignsNobodyIn() {
        var page = console.openLoginPage();

        assertNotSignedIn(console.post("/login", "username=support&password=support-test", page.session()),
                page.session());
        assertNotSignedIn(console.post("/login", "username=support&password=support-test", null), null);
    }

    @Test
    void signInWithAWrongTokenOrAnotherSessionsTokenIsRefused() {
        var attackers = console.openLoginPage();
        var victims = console.openLoginPage();

        assertNotSignedIn(console.post("/login", "username=support&password=support-test&_csrf=" + attackers.csrf(),
                victims.session()), victims.session());
        assertNotSignedIn(console.post("/login", "username=support&password=support-test&_csrf=wrong",
                victims.session()), victims.session());
    }

    @Test
    void crossSiteSignInFromAForeignOriginIsRefused() {
        // a cross-site form POST: no token, and a Lax session cookie is not sent along with it
        assertNotSignedIn(console.post("/login", "username=support&password=support-test", null,
                "Origin", "https://evil.example", "Referer", "https://evil.example/login.html"), null);
    }

    @Test
    void vaadinsRequestTypeParameterDoesNotExemptTheSignInFromCsrf() {
        // Vaadin's own requests (?v-r=uidl…) skip Spring's CSRF check: the sign-in must not pass as one
        assertNotSignedIn(console.post("/login?v-r=uidl", "username=support&password=support-test", null), null);
    }

    @Test
    void theSessionCookieIsSameSiteLaxSecureAndHttpOnlyOutsideTheLocalProfile() {
        var signIn = console.signIn("support", "support-test");

        assertThat(ConsoleClient.sessionCookie(signIn)).hasValueSatisfying(cookie -> assertThat(cookie)
                .containsIgnoringCase("; SameSite=Lax").containsIgnoringCase("; Secure").containsIgnoringCase("; HttpOnly"));
    }

    /** Refused, and neither the session the browser had nor one the response set is signed in. */
    private void assertNotSignedIn(HttpResponse<String> response, String session) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(403);
        for (String cookie : new String[] {session, ConsoleClient.session(response).orElse(null)}) {
            if (cookie != null) {
                var home = console.get("/", cookie);
                assertThat(home.statusCode()).isEqualTo(302);
                assertThat(home.headers().firstValue("Location")).hasValueSatisfying(
                        location -> assertThat(URI.create(location).getPath()).isEqualTo("/login"));
            }
        }
    }

    @Test
    void ledgerFacadeRefusesCallersWithoutTheSupportRole() {
        assertThatThrownBy(() -> ledger.operations(LedgerFilter.none(), 0, 1))
                .isInstanceOf(AuthenticationCredentialsNotFoundException.class);

        signedInAs("ROLE_SOMEONE_ELSE");
        assertThatThrownBy(() -> ledger.operations(LedgerFilter.none(), 0, 1))
                .isInstanceOf(AccessDeniedException.class);
        assertThatThrownBy(() -> ledger.conflicts(0, 1)).isInstanceOf(AccessDeniedException.class);
    }

    @Test
    void adminsReadTheLedgerThroughTheRoleHierarchy() {
        signedInAs("ROLE_ADMIN");

        assertThat(ledger.operations(LedgerFilter.none(), 0, 1)).isNotNull();
        assertThat(ledger.conflicts(0, 1)).isNotNull();
    }

    private static void signedInAs(String authority) {
        SecurityContextHolder.getContext().setAuthentication(UsernamePasswordAuthenticationToken.authenticated(
                "someone", null, AuthorityUtils.createAuthorityList(authority)));
    }

    private URI uri(String path) {
        return URI.create("http://localhost:" + port + path);
    }

    private HttpResponse<String> get(String path, String authorization) {
        var request = HttpRequest.newBuilder(uri(path)).GET();
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return send(request.build());
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
