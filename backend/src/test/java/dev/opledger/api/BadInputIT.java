package dev.opledger.api;

import static dev.opledger.testing.ApiClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.testing.ApiClient;
import dev.opledger.testing.Checkout;
import dev.opledger.testing.LedgerRows;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.TestTokens;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/** Every refusal: its status, its problem type, and that no row changed. */
@NodeIntegrationTest
class BadInputIT {

    private static final String VALID = Checkout.command();
    private static final int LIMIT = 64 * 1024;

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    /**
     * A request to send (built against the test's API client and token) and what must come back;
     * {@code pointer}, when set, must be the first of the problem's {@code errors}.
     */
    record Case(String name, Function<Fixture, HttpRequest> request, int status, String problem, @Nullable String pointer) {
        Case(String name, Function<Fixture, HttpRequest> request, int status, String problem) {
            this(name, request, status, problem, null);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    record Fixture(ApiClient api, String token) {
        HttpRequest post(String key, String contentType, HttpRequest.BodyPublisher body) {
            var headers = new java.util.LinkedHashMap<String, String>();
            if (key != null) {
                headers.put("Idempotency-Key", key);
            }
            if (contentType != null) {
                headers.put("Content-Type", contentType);
            }
            return api.request("/v1/operations", token, headers).POST(body).build();
        }

        HttpRequest postJson(String body) {
            return post(UUID.randomUUID().toString(), "application/json", HttpRequest.BodyPublishers.ofString(body));
        }

        HttpRequest postBytes(byte[] body) {
            return post(UUID.randomUUID().toString(), "application/json", HttpRequest.BodyPublishers.ofByteArray(body));
        }
    }

    static Stream<Case> cases() {
        List<Case> cases = new ArrayList<>();
        String key = "idempotency-key";
        cases.add(new Case("missing Idempotency-Key",
                f -> f.post(null, "application/json", HttpRequest.BodyPublishers.ofString(VALID)), 400, key));
        for (String bad : List.of("abc", "1-1-1-1-1", "00000000-0000-0000-0000-000000000000",
                "8e7b6d9e2f4c4a7e9b1d3c5e7f9a1b2c", "{8e7b6d9e-2f4c-4a7e-9b1d-3c5e7f9a1b2c}",
                "8e7b6d9e-2f4c-4a7e-9b1d-3c5e7f9a1b2g")) {
            cases.add(new Case("Idempotency-Key " + bad,
                    f -> f.post(bad, "application/json", HttpRequest.BodyPublishers.ofString(VALID)), 400, key));
        }
        cases.add(new Case("two Idempotency-Keys", f -> f.api().request("/v1/operations", f.token(),
                        java.util.Map.of("Content-Type", "application/json"))
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .POST(HttpRequest.BodyPublishers.ofString(VALID)).build(), 400, key));
        String malformed = "malformed-body";
        for (String body : List.of("", "{", "not json", "[]", "\"checkout\"", "42", "null",
                "{\"arguments\":{}}", "{\"type\":7,\"arguments\":{}}", "{\"type\":\"\",\"arguments\":{}}",
                "{\"type\":\"checkout\"}", "{\"type\":\"checkout\",\"arguments\":[]}",
                "{\"type\":\"checkout\",\"arguments\":{},\"extra\":1}",
                "{\"type\":\"checkout\",\"type\":\"refund\",\"arguments\":{}}",
                "{\"type\":\"checkout\",\"arguments\":{\"a\":1,\"a\":2}}",
                "{\"type\":\"checkout\",\"arguments\":{}} trailing",
                "{\"type\":\"checkout\",\"arguments\":{\"n\":1e400}}",
                "{\"type\":\"checkout\",\"arguments\":" + "[".repeat(200) + "]".repeat(200) + "}")) {
            cases.add(new Case("body " + abbreviate(body), f -> f.postJson(body), 400, malformed));
        }
        // I-JSON (RFC 7493): what a lenient decoder would replace, and what jsonb cannot store
        for (String recipient : List.of("x\\ud800", "x\\udc00", "\\ude00\\ud83d", "a\\u0000b")) {
            cases.add(new Case("recipient " + recipient, f -> f.postJson(Checkout.command()
                    .replace("ann@example.com", recipient)), 400, malformed));
        }
        cases.add(new Case("U+0000 under an unknown type", f -> f.postJson(ApiClient.command("refund",
                "{\"note\":\"\\u0000\"}")), 400, malformed));
        // overlong forms and code points beyond U+10FFFF, which Jackson's own decoder let through
        for (String hex : List.of("c0af", "e080af", "c1bf", "f4908080")) {
            cases.add(new Case("recipient with the bytes " + hex, f -> f.postBytes(withBytes(Checkout.command(),
                    "ann@", java.util.HexFormat.of().parseHex(hex))), 400, malformed));
        }
        cases.add(new Case("unknown operation type", f -> f.postJson(ApiClient.command("refund", Checkout.arguments())),
                422, "unknown-operation-type"));
        String invalid = "invalid-arguments";
        cases.add(new Case("missing required argument", f -> f.postJson(ApiClient.command("checkout",
                "{\"sku\":\"SKU-ESPRESSO\",\"quantity\":1,\"amount\":49.90,\"currency\":\"EUR\"}")),
                422, invalid, "/arguments/recipient"));
        cases.add(new Case("argument of the wrong type", f -> f.postJson(ApiClient.command("checkout",
                Checkout.arguments(1).replace("\"quantity\":1", "\"quantity\":\"1\""))), 422, invalid, "/arguments/quantity"));
        cases.add(new Case("extra argument", f -> f.postJson(ApiClient.command("checkout",
                Checkout.arguments().replace("}", ",\"coupon\":\"FREE\"}"))), 422, invalid, "/arguments/coupon"));
        cases.add(new Case("amount with three decimals", f -> f.postJson(Checkout.command(1, "49.999")),
                422, invalid, "/arguments/amount"));
        for (String huge : List.of("1e30", "1e300", "-1e30")) {
            cases.add(new Case("quantity " + huge, f -> f.postJson(Checkout.command().replace("\"quantity\":1",
                    "\"quantity\":" + huge)), 422, invalid, "/arguments/quantity"));
        }
        cases.add(new Case("text/plain", f -> f.post(UUID.randomUUID().toString(), "text/plain",
                HttpRequest.BodyPublishers.ofString(VALID)), 415, "unsupported-media-type"));
        cases.add(new Case("no Content-Type", f -> f.post(UUID.randomUUID().toString(), null,
                HttpRequest.BodyPublishers.ofString(VALID)), 415, "unsupported-media-type"));
        String tooLarge = ApiClient.command("checkout", "{\"pad\":\"" + "x".repeat(LIMIT) + "\"}");
        cases.add(new Case("body over 64 KiB", f -> f.postJson(tooLarge), 413, "body-too-large"));
        cases.add(new Case("body over 64 KiB, chunked", f -> f.post(UUID.randomUUID().toString(), "application/json",
                HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(tooLarge.getBytes()))),
                413, "body-too-large"));
        cases.add(new Case("unknown route", f -> f.api().request("/v1/nothing-here", f.token(), java.util.Map.of())
                .GET().build(), 404, "not-found"));
        cases.add(new Case("GET on the collection", f -> f.api().request("/v1/operations", f.token(),
                java.util.Map.of()).GET().build(), 405, "method-not-allowed"));
        cases.add(new Case("malformed operationId in path", f -> f.api().request("/v1/operations/nope", f.token(),
                java.util.Map.of()).GET().build(), 404, "not-found"));
        cases.add(new Case("no token", f -> new Fixture(f.api(), null).postJson(VALID), 401, "unauthenticated"));
        cases.add(new Case("token signed with another secret", f -> new Fixture(f.api(),
                TestTokens.mint("another-secret-another-secret-another-secret", c -> c.subject("mallory")))
                .postJson(VALID), 401, "unauthenticated"));
        cases.add(new Case("expired token", f -> new Fixture(f.api(), TestTokens.mint(TestTokens.TEST_SECRET,
                c -> c.subject("late").expirationTime(java.util.Date.from(java.time.Instant.now().minusSeconds(3600)))))
                .postJson(VALID), 401, "unauthenticated"));
        cases.add(new Case("token without sub", f -> new Fixture(f.api(), TestTokens.mint(TestTokens.TEST_SECRET,
                c -> c)).postJson(VALID), 401, "unauthenticated"));
        cases.add(new Case("token whose sub holds a NUL", f -> new Fixture(f.api(), TestTokens.mint(
                TestTokens.TEST_SECRET, c -> c.subject("bad\u0000subject"))).postJson(VALID), 401, "unauthenticated"));
        cases.add(new Case("token whose sub is 256 characters", f -> new Fixture(f.api(), TestTokens.mint(
                TestTokens.TEST_SECRET, c -> c.subject("s".repeat(256)))).postJson(VALID), 401, "unauthenticated"));
        // the subject is exactly the token's sub, or the token is refused
        cases.add(new Case("token whose sub holds a lone surrogate", f -> new Fixture(f.api(), TestTokens.withMembers(
                "\"sub\":\"\\ud800q\"")).postJson(VALID), 401, "unauthenticated"));
        cases.add(new Case("token whose sub is not UTF-8", f -> new Fixture(f.api(), TestTokens.withMembers(
                withBytes("\"sub\":\"q\"", "q", new byte[] {(byte) 0xff}))).postJson(VALID), 401, "unauthenticated"));
        cases.add(new Case("token whose sub is a number", f -> new Fixture(f.api(), TestTokens.withMembers(
                "\"sub\":12345")).postJson(VALID), 401, "unauthenticated"));
        cases.add(new Case("token without exp", f -> new Fixture(f.api(), TestTokens.signRaw(TestTokens.TEST_SECRET,
                ("{\"sub\":\"no-exp-" + UUID.randomUUID() + "\"}").getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .postJson(VALID), 401, "unauthenticated"));
        cases.add(new Case("two Authorization headers", f -> f.api().request("/v1/operations", null,
                        java.util.Map.of("Content-Type", "application/json", "Idempotency-Key", UUID.randomUUID().toString()))
                .header("Authorization", "Bearer " + f.token())
                .header("Authorization", "Bearer " + TestTokens.forSubject("second-" + UUID.randomUUID()))
                .POST(HttpRequest.BodyPublishers.ofString(VALID)).build(), 401, "unauthenticated"));
        cases.add(new Case("garbage token", f -> new Fixture(f.api(), "not.a.jwt").postJson(VALID), 401,
                "unauthenticated"));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void refusesWithAProblemAndChangesNothing(Case refused) {
        var api = ApiClient.onPort(port);
        var rows = new LedgerRows(jdbc);
        var before = rows.counts();

        HttpResponse<String> response = api.send(refused.request().apply(
                new Fixture(api, TestTokens.forSubject("bad-input-" + UUID.randomUUID()))));

        assertThat(response.statusCode()).as(response.body()).isEqualTo(refused.status());
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        var problem = json(response);
        assertThat(problem.get("type").asString()).isEqualTo("https://opledger.dev/problems/" + refused.problem());
        assertThat(problem.get("status").asInt()).isEqualTo(refused.status());
        assertThat(problem.get("title").asString()).isNotBlank();
        assertThat(problem.get("detail").asString()).isNotBlank();
        if (refused.pointer() != null) {
            assertThat(problem.get("errors").get(0).get("pointer").asString()).isEqualTo(refused.pointer());
            assertThat(problem.get("errors").get(0).get("message").asString()).isNotBlank();
            assertThat(problem.get("detail").asString()).contains(refused.pointer());
        }
        if (refused.status() == 401 && refused.problem().equals("unauthenticated")) {
            assertThat(response.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                    challenge -> assertThat(challenge).startsWith("Bearer"));
        }
        if (refused.problem().equals("unknown-operation-type")) {
            assertThat(problem.get("detail").asString()).contains("\"refund\"").contains("checkout");
        }
        assertThat(rows.counts()).isEqualTo(before);
    }

    // Issue 8: "x" + U+D800 (a lone surrogate) was hashed as "x?" and replayed as that operation.
    @org.junit.jupiter.api.Test
    void refusesALoneSurrogateRatherThanReplayingTheBodyItWouldBeReadAs() {
        var api = ApiClient.onPort(port);
        var rows = new LedgerRows(jdbc);
        String subject = "surrogate-" + UUID.randomUUID();
        String token = TestTokens.forSubject(subject);
        String question = Checkout.command().replace("ann@example.com", "x?");
        String surrogate = Checkout.command().replace("ann@example.com", "x\\ud800");
        var first = UUID.randomUUID();
        assertThat(api.submit(token, first.toString(), question).statusCode()).isEqualTo(202);
        var before = rows.counts();

        var replay = api.submit(token, first.toString(), surrogate);
        var fresh = UUID.randomUUID();
        var refusedFresh = api.submit(token, fresh.toString(), surrogate);

        for (var refused : List.of(replay, refusedFresh)) {
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
            assertThat(refused.headers().firstValue("Idempotent-Replayed")).isEmpty();
            assertThat(json(refused).get("type").asString()).isEqualTo("https://opledger.dev/problems/malformed-body");
        }
        assertThat(rows.counts()).isEqualTo(before);
        assertThat(rows.operations(subject, fresh)).isEmpty();
        assertThat(rows.operations(subject, first)).singleElement()
                .satisfies(row -> assertThat(row.get("command").toString()).contains("\"x?\""));
    }

    // Issue 8: the bytes C4 80 in the header made the firewall's RequestRejectedException a 500.
    @org.junit.jupiter.api.Test
    void refusesAnIdempotencyKeyOfNonAsciiBytes() throws java.io.IOException {
        var rows = new LedgerRows(jdbc);
        var before = rows.counts();
        byte[] body = VALID.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        var head = new java.io.ByteArrayOutputStream();
        head.writeBytes(("POST /v1/operations HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                + "Authorization: Bearer " + TestTokens.forSubject("latin-" + UUID.randomUUID()) + "\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n"
                + "Idempotency-Key: 8e7b6d9e-2f4c-4a7e-9b1d-3c5e7f9a1b").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        head.writeBytes(new byte[] {(byte) 0xc4, (byte) 0x80});
        head.writeBytes("\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        head.writeBytes(body);

        String response;
        try (var socket = new java.net.Socket("localhost", port)) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(head.toByteArray());
            response = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }

        assertThat(response).startsWith("HTTP/1.1 400 ");
        assertThat(response).containsIgnoringCase("Content-Type: application/problem+json");
        assertThat(response).contains("\"type\":\"https://opledger.dev/problems/idempotency-key\"");
        assertThat(rows.counts()).isEqualTo(before);
    }

    /** The UTF-8 text with {@code bytes} inserted after the first {@code after}. */
    private static byte[] withBytes(String text, String after, byte[] bytes) {
        int at = text.indexOf(after) + after.length();
        var out = new java.io.ByteArrayOutputStream();
        out.writeBytes(text.substring(0, at).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        out.writeBytes(bytes);
        out.writeBytes(text.substring(at).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    private static String abbreviate(String body) {
        return body.isEmpty() ? "(empty)" : body.length() > 40 ? body.substring(0, 40) + "…" : body;
    }
}
