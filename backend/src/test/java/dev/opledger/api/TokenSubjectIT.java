package dev.opledger.api;

import static dev.opledger.testing.ApiClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.testing.ApiClient;
import dev.opledger.testing.Checkout;
import dev.opledger.testing.LedgerRows;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.TestTokens;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/** A subject is exactly the token's sub, or the token is refused: never normalised into another subject. */
@NodeIntegrationTest
class TokenSubjectIT {

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    ApiClient api;
    LedgerRows rows;
    String tag;

    @BeforeEach
    void setUp() {
        api = ApiClient.onPort(port);
        rows = new LedgerRows(jdbc);
        tag = UUID.randomUUID().toString();
    }

    // Issue 8: a token whose sub is U+D800 + "q" read the operations of the subject "?q".
    @Test
    void aSubWithALoneSurrogateReadsNothingOfTheQuestionMarkSubject() {
        var operationId = UUID.randomUUID();
        assertThat(api.submit(TestTokens.forSubject("?q" + tag), operationId.toString(), Checkout.command())
                .statusCode()).isEqualTo(202);
        String surrogate = TestTokens.withMembers("\"sub\":\"\\ud800q" + tag + "\"");
        var before = rows.counts();

        assertUnauthenticated(api.get(surrogate, "/v1/operations/" + operationId));
        assertUnauthenticated(api.submit(surrogate, operationId.toString(), Checkout.command()));
        assertUnauthenticated(api.submit(surrogate, UUID.randomUUID().toString(), Checkout.command()));
        assertThat(rows.counts()).isEqualTo(before);
    }

    // The JWT library reads the byte FF as U+FFFD: every such token would be the subject U+FFFD + "q".
    @Test
    void aSubThatIsNotUtf8IsRefusedRatherThanReadAsTheReplacementCharacter() {
        var operationId = UUID.randomUUID();
        assertThat(api.submit(TestTokens.forSubject("\ufffdq" + tag), operationId.toString(), Checkout.command())
                .statusCode()).isEqualTo(202);
        var members = new java.io.ByteArrayOutputStream();
        members.writeBytes("\"sub\":\"".getBytes(StandardCharsets.UTF_8));
        members.write(0xff);
        members.writeBytes(("q" + tag + "\"").getBytes(StandardCharsets.UTF_8));

        assertUnauthenticated(api.get(TestTokens.withMembers(members.toByteArray()), "/v1/operations/" + operationId));
    }

    @Test
    void aSubIsStoredAndMatchedExactly() {
        String subject = "user-\ud83d\ude00-\ufffd?-" + tag;
        var operationId = UUID.randomUUID();
        String escaped = TestTokens.withMembers("\"sub\":\"user-\\ud83d\\ude00-\\ufffd?-" + tag + "\"");

        assertThat(api.submit(escaped, operationId.toString(), Checkout.command()).statusCode()).isEqualTo(202);

        assertThat(rows.operations(subject, operationId)).hasSize(1);
        assertThat(api.get(TestTokens.forSubject(subject), "/v1/operations/" + operationId).statusCode()).isEqualTo(200);
        assertThat(api.get(TestTokens.forSubject("user-\ud83d\ude00-\ufffd\ufffd-" + tag), "/v1/operations/" + operationId)
                .statusCode()).isEqualTo(404);
    }

    @Test
    void aNumberSubIsNotTheSubjectOfItsDigits() {
        var operationId = UUID.randomUUID();
        long digits = Math.abs(tag.hashCode()) + 1_000_000L;
        assertThat(api.submit(TestTokens.forSubject(Long.toString(digits)), operationId.toString(), Checkout.command())
                .statusCode()).isEqualTo(202);

        assertUnauthenticated(api.get(TestTokens.withMembers("\"sub\":" + digits), "/v1/operations/" + operationId));
    }

    private static void assertUnauthenticated(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(401);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                challenge -> assertThat(challenge).startsWith("Bearer").contains("invalid_token"));
        assertThat(json(response).get("type").asString()).isEqualTo("https://opledger.dev/problems/unauthenticated");
    }
}
