package dev.opledger.attest;

import static dev.opledger.testing.ApiClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.attest.internal.Digests;
import dev.opledger.testing.ApiClient;
import dev.opledger.testing.Checkout;
import dev.opledger.testing.LedgerRows;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.TestTokens;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;

/** What a node requiring App Attest answers before any device key is involved. */
@NodeIntegrationTest
@TestPropertySource(properties = {"opledger.attest.mode=required", "opledger.attest.apps=OPLEDGERDV.dev.opledger.simulator"})
class AttestWithoutDeviceIT {

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    ApiClient api;
    String subject;
    String token;

    @BeforeEach
    void setUp() {
        api = ApiClient.onPort(port);
        subject = "attest-" + UUID.randomUUID();
        token = TestTokens.forSubject(subject);
    }

    @Test
    void issuesASingleUseChallengeBoundToTheSubjectAndStoresOnlyItsHash() {
        var response = challenge();

        assertThat(response.statusCode()).isEqualTo(201);
        assertThat(response.headers().firstValue("Cache-Control")).hasValueSatisfying(v -> assertThat(v).contains("no-store"));
        byte[] challenge = Base64.getUrlDecoder().decode(json(response).get("challenge").asString());
        assertThat(challenge).hasSize(32);
        var expiresAt = Instant.parse(json(response).get("expiresAt").asString());
        assertThat(expiresAt).isBetween(Instant.now().plus(Duration.ofMinutes(4)), Instant.now().plus(Duration.ofMinutes(6)));
        assertThat(jdbc.queryForList("SELECT subject_id FROM attest_challenge WHERE challenge_hash = ?", String.class,
                (Object) Digests.sha256(challenge))).containsExactly(subject);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM attest_challenge WHERE challenge_hash = ?", Long.class,
                (Object) challenge)).isZero();
    }

    @Test
    void refusesAnAttemptWithoutAssertionAndStoresNothing() {
        var before = new LedgerRows(jdbc).counts();

        var response = api.submit(token, UUID.randomUUID().toString(), Checkout.command());

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(json(response).get("type").asString()).isEqualTo("https://opledger.dev/problems/attestation-required");
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("AppAttest realm=\"opledger\"");
        assertThat(new LedgerRows(jdbc).counts()).isEqualTo(before);
    }

    @Test
    void refusesPartOfTheHeadersAndUndecodableOnes() {
        assertThat(problem(submit(Map.of("App-Attest-Key-Id", "AAAA")))).isEqualTo("assertion-invalid");
        assertThat(problem(submit(Map.of("App-Attest-Key-Id", "%%%", "App-Attest-Challenge", "AAAA",
                "App-Attest-Assertion", "AAAA")))).isEqualTo("assertion-invalid");
        assertThat(problem(submit(Map.of("App-Attest-Key-Id", "AAAA", "App-Attest-Challenge", "c2hvcnQ",
                "App-Attest-Assertion", "AAAA")))).isEqualTo("assertion-invalid");
    }

    @Test
    void refusesAnUnknownKey() {
        String challenge = json(challenge()).get("challenge").asString();
        var response = submit(Map.of("App-Attest-Key-Id", Base64.getEncoder().encodeToString(new byte[32]),
                "App-Attest-Challenge", challenge, "App-Attest-Assertion", "oA=="));

        assertThat(problem(response)).isEqualTo("key-unknown");
    }

    @Test
    void refusesACommandNoTypeAcceptsBeforeAttestationAndLeavesItsChallengeUnused() {
        String challenge = json(challenge()).get("challenge").asString();
        Map<String, String> attestHeaders = Map.of("App-Attest-Key-Id", Base64.getEncoder().encodeToString(new byte[32]),
                "App-Attest-Challenge", challenge, "App-Attest-Assertion", "oA==");
        var before = new LedgerRows(jdbc).counts();

        var unknownType = submit(attestHeaders, ApiClient.command("refund", Checkout.arguments()));
        var invalidArguments = submit(attestHeaders, ApiClient.command("checkout", "{\"sku\":\"SKU-ESPRESSO\"}"));

        assertThat(unknownType.statusCode()).isEqualTo(422);
        assertThat(problem(unknownType)).isEqualTo("unknown-operation-type");
        assertThat(invalidArguments.statusCode()).isEqualTo(422);
        assertThat(problem(invalidArguments)).isEqualTo("invalid-arguments");
        assertThat(jdbc.queryForObject("SELECT consumed_at IS NULL FROM attest_challenge WHERE challenge_hash = ?",
                Boolean.class, (Object) Digests.sha256(Base64.getUrlDecoder().decode(challenge)))).isTrue();
        assertThat(new LedgerRows(jdbc).counts()).isEqualTo(before);
    }

    @Test
    void refusesAnAttestationThatIsNotOneAndUsesUpItsChallenge() {
        String challenge = json(challenge()).get("challenge").asString();
        String body = "{\"keyId\":\"" + Base64.getEncoder().encodeToString(new byte[32])
                + "\",\"attestationObject\":\"oA==\",\"challenge\":\"" + challenge + "\"}";

        var first = register(body);
        var again = register(body);

        assertThat(first.statusCode()).isEqualTo(401);
        assertThat(json(first).get("type").asString()).isEqualTo("https://opledger.dev/problems/attestation-invalid");
        assertThat(json(first).get("check").asString()).isEqualTo("FORMAT");
        assertThat(problem(again)).isEqualTo("challenge-invalid");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM attest_key WHERE subject_id = ?", Long.class, subject)).isZero();
    }

    @Test
    void refusesARegistrationBodyThatIsNotOne() {
        assertThat(problem(register("[]"))).isEqualTo("malformed-body");
        assertThat(problem(register("{\"keyId\":\"AAAA\"}"))).isEqualTo("malformed-body");
        assertThat(problem(register("{\"keyId\":\"!!\",\"attestationObject\":\"AA==\",\"challenge\":\"AA\"}")))
                .isEqualTo("malformed-body");
        // which member counts must not depend on the parser: refused, and no challenge is looked at
        assertThat(problem(register("{\"keyId\":\"AAAA\",\"attestationObject\":\"AA==\",\"challenge\":\"AA\","
                + "\"challenge\":\"AQ\"}"))).isEqualTo("malformed-body");
    }

    private HttpResponse<String> challenge() {
        return api.send(api.request("/v1/attest/challenges", token, Map.of()).POST(HttpRequest.BodyPublishers.noBody())
                .build());
    }

    private HttpResponse<String> register(String body) {
        return api.send(api.request("/v1/attest/keys", token, Map.of("Content-Type", "application/json"))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private HttpResponse<String> submit(Map<String, String> attestHeaders) {
        return submit(attestHeaders, Checkout.command());
    }

    private HttpResponse<String> submit(Map<String, String> attestHeaders, String body) {
        var headers = new java.util.HashMap<>(attestHeaders);
        headers.put("Idempotency-Key", UUID.randomUUID().toString());
        headers.put("Content-Type", "application/json");
        return api.send(api.request("/v1/operations", token, headers)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private static String problem(HttpResponse<String> response) {
        return json(response).get("type").asString().replace("https://opledger.dev/problems/", "");
    }
}
