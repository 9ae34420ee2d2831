package dev.opledger.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.testing.Checkout;
import dev.opledger.testing.DocumentedProblems;
import dev.opledger.testing.LedgerTables;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.RawHttp;
import dev.opledger.testing.TestTokens;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Requests refused before the API's own code runs, by Spring Security's firewall or by Tomcat,
 * written byte for byte over a socket: each is a documented problem, and no row changed.
 */
@NodeIntegrationTest
@Import(RefusedRequestIT.ErrorSeam.class)
class RefusedRequestIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    record Case(String name, Function<String, RawHttp.Request> request, int status, String problem) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        String rejected = "request-rejected";
        String id = UUID.randomUUID().toString();
        return Stream.of(
                new Case("// in the path", token -> get("/v1//operations/" + id, token), 400, rejected),
                new Case("// before the path", token -> get("//v1/operations/" + id, token), 400, rejected),
                new Case(";x=1 in the path", token -> get("/v1/operations;x=1/" + id, token), 400, rejected),
                new Case("/./ in the path", token -> get("/v1/./operations/" + id, token), 400, rejected),
                new Case("%2e%2e in the path", token -> get("/v1/operations/%2e%2e/operations/" + id, token), 400,
                        rejected),
                new Case("%0d%0a in the path", token -> get("/v1/operations/%0d%0a" + id, token), 400, rejected),
                new Case("%00 in the path", token -> get("/v1/operations/%00" + id, token), 400, rejected),
                new Case("lower-case method", token -> new RawHttp.Request("get", "/v1/operations/" + id)
                        .header("Authorization", "Bearer " + token), 400, rejected),
                new Case("lower-case method on a POST", token -> post("post", token), 400, rejected),
                new Case("two Host headers", token -> get("/v1/operations/" + id, token).header("Host", "elsewhere"),
                        400, rejected),
                new Case("request line that does not parse", token -> RawHttp.Request.line("GET /v1/operations/{x} HTTP/1.1")
                        .header("Authorization", "Bearer " + token), 400, rejected),
                new Case("CONNECT, which Tomcat does not implement", token -> new RawHttp.Request("CONNECT",
                        "/v1/operations/" + id).header("Authorization", "Bearer " + token), 400, rejected),
                new Case("a transfer coding Tomcat does not implement", token -> post("POST", token)
                        .header("Transfer-Encoding", "gzip").framedByCaller(), 400, rejected),
                new Case("a C1 control byte in a header the API reads", token -> post("POST", token)
                        .header("User-Agent", "app/1.0 \u0085"), 400, rejected),
                new Case("multipart/form-data", token -> new RawHttp.Request("POST", "/v1/operations")
                        .header("Authorization", "Bearer " + token).header("Idempotency-Key", id)
                        .header("Content-Type", "multipart/form-data; boundary=x").body(Checkout.command()), 415,
                        "unsupported-media-type"),
                // the operations are JSON only: refused before the handler, so the submission stores nothing
                new Case("a submission accepting only XML", token -> post("POST", token).header("Accept", "application/xml"),
                        406, "not-acceptable"),
                new Case("a waiting submission accepting only HTML", token -> post("POST", token)
                        .header("Prefer", "wait=5").header("Accept", "text/html"), 406, "not-acceptable"),
                new Case("a waiting read accepting only XML", token -> get("/v1/operations/" + id, token)
                        .header("Prefer", "wait=5").header("Accept", "application/xml"), 406, "not-acceptable"),
                new Case("a cancel accepting only problems", token -> new RawHttp.Request("POST",
                        "/v1/operations/" + id + "/cancel").header("Authorization", "Bearer " + token)
                        .header("Accept", "application/problem+json"), 406, "not-acceptable"),
                new Case("TRACE", token -> new RawHttp.Request("TRACE", "/v1/operations/" + id)
                        .header("Authorization", "Bearer " + token), 405, "method-not-allowed"),
                // Tomcat 11 answers 400 for both, not 431 or 414
                new Case("20 KiB header", token -> get("/v1/operations/" + id, token)
                        .header("X-Padding", "p".repeat(20 * 1024)), 400, rejected),
                new Case("20 KiB of headers", token -> {
                    var request = get("/v1/operations/" + id, token);
                    for (int i = 0; i < 40; i++) {
                        request.header("X-Padding-" + i, "p".repeat(512));
                    }
                    return request;
                }, 400, rejected),
                new Case("20 KiB target", token -> get("/v1/operations/" + "x".repeat(20 * 1024), token), 400,
                        rejected),
                new Case("HTTP/1.2", token -> RawHttp.Request.line("GET /v1/operations/" + id + " HTTP/1.2")
                        .header("Authorization", "Bearer " + token), 505, "http-version-not-supported"),
                new Case("Bearer<TAB>token", token -> new RawHttp.Request("GET", "/v1/operations/" + id)
                        .header("Authorization", "Bearer\t" + token), 401, "unauthenticated"),
                new Case("Bearer<TAB>token on a POST", token -> new RawHttp.Request("POST", "/v1/operations")
                        .header("Authorization", "Bearer\t" + token).header("Idempotency-Key", id)
                        .header("Content-Type", "application/json").body(Checkout.command()), 401, "unauthenticated"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void answersAProblemAndChangesNothing(Case refused) {
        var tables = new LedgerTables(jdbc);
        var before = tables.counts();

        RawHttp.Response response = new RawHttp(port).send(refused.request().apply(
                TestTokens.forSubject("refused-" + UUID.randomUUID())));

        assertThat(response.status()).as(response.toString()).isEqualTo(refused.status());
        assertThat(response.header("Content-Type")).as(response.toString()).startsWith("application/problem+json");
        var problem = JSON.readTree(response.body());
        assertThat(problem.get("type").asString()).isEqualTo("https://opledger.dev/problems/" + refused.problem())
                .isIn(DocumentedProblems.types());
        assertThat(problem.get("status").asInt()).isEqualTo(refused.status());
        assertThat(problem.get("title").asString()).isNotBlank();
        assertThat(problem.get("detail").asString()).isNotBlank();
        assertThat(tables.counts()).isEqualTo(before);
    }

    /**
     * Boot's {@code /error} for an API request: reached when a filter calls {@code sendError} or
     * throws, which the filter of {@link ErrorSeam} does at once, before the API's own code.
     */
    @ParameterizedTest
    @MethodSource("errorDispatches")
    void answersErrorDispatchesOfTheApiWithAProblem(String path, int status, String problem) {
        var tables = new LedgerTables(jdbc);
        var before = tables.counts();

        RawHttp.Response response = new RawHttp(port).send(get(path, TestTokens.forSubject("error-seam"))
                .header("Accept", "text/html"));

        assertThat(response.status()).as(response.toString()).isEqualTo(status);
        assertThat(response.header("Content-Type")).as(response.toString()).startsWith("application/problem+json");
        var body = JSON.readTree(response.body());
        assertThat(body.get("type").asString()).isEqualTo("https://opledger.dev/problems/" + problem)
                .isIn(DocumentedProblems.types());
        assertThat(body.get("status").asInt()).isEqualTo(status);
        assertThat(response.text()).doesNotContain(ErrorSeam.SECRET).doesNotContain("trace");
        assertThat(tables.counts()).isEqualTo(before);
    }

    static Stream<Arguments> errorDispatches() {
        return Stream.of(
                Arguments.of(ErrorSeam.PATH + "send-error", 418, "request-rejected"),
                Arguments.of(ErrorSeam.PATH + "throw", 500, "internal-error"));
    }

    /** A filter in front of everything else that fails the way a filter can fail. */
    @TestConfiguration(proxyBeanMethods = false)
    static class ErrorSeam {

        static final String PATH = "/v1/test-only-error-seam/";
        static final String SECRET = "exception text for the log only";

        @Bean
        FilterRegistrationBean<Filter> failingFilter() {
            Filter failing = (request, response, chain) -> {
                if (((HttpServletRequest) request).getRequestURI().endsWith("/throw")) {
                    throw new IllegalStateException(SECRET);
                }
                ((HttpServletResponse) response).sendError(418, SECRET);
            };
            var registration = new FilterRegistrationBean<>(failing);
            registration.addUrlPatterns(PATH + "*");
            registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
            return registration;
        }
    }

    static Stream<String> consolePaths() {
        return Stream.of("/%00", "/ledger/%00");
    }

    /** The console's paths keep Tomcat's page: a person reads it, not a client switching on a type. */
    @ParameterizedTest
    @MethodSource("consolePaths")
    void leavesTheConsolesRefusalsToTomcat(String path) {
        RawHttp.Response response = new RawHttp(port).send(new RawHttp.Request("GET", path));

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.header("Content-Type")).startsWith("text/html");
    }

    private static RawHttp.Request get(String target, String token) {
        return new RawHttp.Request("GET", target).header("Authorization", "Bearer " + token);
    }

    private static RawHttp.Request post(String method, String token) {
        return new RawHttp.Request(method, "/v1/operations").header("Authorization", "Bearer " + token)
                .header("Idempotency-Key", UUID.randomUUID().toString()).header("Content-Type", "application/json")
                .body(Checkout.command());
    }
}
