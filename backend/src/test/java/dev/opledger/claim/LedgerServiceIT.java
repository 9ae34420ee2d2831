package dev.opledger.claim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.operation.Command;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.PayloadHash;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.ApiClient;
import dev.opledger.testing.Checkout;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.TestTokens;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.AuthenticationCredentialsNotFoundException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;

/** The ledger's read side as the console sees it. */
@NodeIntegrationTest
class LedgerServiceIT {

    @LocalServerPort
    int port;

    @Autowired
    LedgerService ledger;

    @AfterEach
    void signOut() {
        SecurityContextHolder.clearContext();
    }

    /** Regression: the detail returned jsonb's rendering ({"type": …, "arguments": …}), not the hashed text. */
    @Test
    void operationDetailCarriesTheCanonicalCommandItsPayloadHashCovers() {
        String subject = "user-" + UUID.randomUUID();
        var operationId = OperationId.random();
        // members out of order, a number spelled long-hand, a non-ASCII string
        String body = "{ \"arguments\": {\"sku\": \"A-1\", \"recipient\": \"åsa@example.com\", \"currency\": \"SEK\", "
                + "\"amount\": 1.25e1, \"quantity\": 2.0}, \"type\": \"checkout\" }";
        var response = ApiClient.onPort(port).submit(TestTokens.forSubject(subject), operationId.toString(), body);
        assertThat(response.statusCode()).isEqualTo(202);
        SecurityContextHolder.getContext().setAuthentication(UsernamePasswordAuthenticationToken.authenticated(
                "support", null, AuthorityUtils.createAuthorityList("ROLE_SUPPORT")));

        var detail = ledger.operation(new SubjectId(subject), operationId).orElseThrow();

        String canonical = Command.parse(body.getBytes(StandardCharsets.UTF_8)).canonicalJson();
        assertThat(detail.command()).isEqualTo(canonical)
                .isEqualTo("{\"arguments\":{\"amount\":12.5,\"currency\":\"SEK\",\"quantity\":2,"
                        + "\"recipient\":\"åsa@example.com\",\"sku\":\"A-1\"},\"type\":\"checkout\"}");
        assertThat(PayloadHash.sha256(detail.command().getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(detail.operation().payloadHash());
    }

    /** Regression: the console could open an operation only with its subject, though ids are unique. */
    @Test
    void anOperationIsFoundByItsIdAloneWithItsSubject() {
        String subject = "user-" + UUID.randomUUID();
        var operationId = OperationId.random();
        var response = ApiClient.onPort(port).submit(TestTokens.forSubject(subject), operationId.toString(),
                Checkout.command(1));
        assertThat(response.statusCode()).isEqualTo(202);
        signedInAs("ROLE_SUPPORT");

        var byId = ledger.operation(operationId).orElseThrow();

        assertThat(byId.operation().subject()).isEqualTo(new SubjectId(subject));
        assertThat(byId).isEqualTo(ledger.operation(new SubjectId(subject), operationId).orElseThrow());
        assertThat(ledger.operation(OperationId.random())).isEmpty();
    }

    @Test
    void onlySupportStaffReadAnOperationByItsId() {
        assertThatThrownBy(() -> ledger.operation(OperationId.random()))
                .isInstanceOf(AuthenticationCredentialsNotFoundException.class);

        signedInAs("ROLE_SOMEONE_ELSE");
        assertThatThrownBy(() -> ledger.operation(OperationId.random())).isInstanceOf(AccessDeniedException.class);
    }

    private static void signedInAs(String authority) {
        SecurityContextHolder.getContext().setAuthentication(UsernamePasswordAuthenticationToken.authenticated(
                "support", null, AuthorityUtils.createAuthorityList(authority)));
    }
}
