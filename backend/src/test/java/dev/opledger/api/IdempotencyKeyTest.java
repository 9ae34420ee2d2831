package dev.opledger.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.web.firewall.StrictHttpFirewall;

/** The Idempotency-Key as the controller reads it: through the request firewall, as in a node. */
class IdempotencyKeyTest {

    private static ApiException refusal(String headerBytesAsLatin1) {
        var request = new MockHttpServletRequest("POST", "/v1/operations");
        request.addHeader(OperationController.IDEMPOTENCY_KEY, headerBytesAsLatin1);
        var firewalled = new StrictHttpFirewall().getFirewalledRequest(request);
        return catchThrowableOfType(ApiException.class, () -> IdempotencyKey.from(firewalled));
    }

    private static String latin1(byte... bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    // Issue 8: the bytes C4 80 made the firewall's RequestRejectedException escape as a 500.
    @ParameterizedTest
    @ValueSource(strings = {"c480", "80", "9f", "e28082"})
    void refusesNonAsciiBytesAsABadKey(String hex) {
        byte[] bytes = java.util.HexFormat.of().parseHex(hex);
        String key = "8e7b6d9e-2f4c-4a7e-9b1d-3c5e7f9a1b2c".substring(bytes.length) + latin1(bytes);

        ApiException refused = refusal(key);

        assertThat(refused).as(hex).isNotNull();
        assertThat(refused.problem()).isEqualTo(ProblemType.IDEMPOTENCY_KEY);
        assertThat(refused.operationId()).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"8e7b6d9e-2f4c-4a7e-9b1d-3c5e7f9a1b2c", "8E7B6D9E-2F4C-4A7E-9B1D-3C5E7F9A1B2C",
        "\"8e7b6d9e-2f4c-4a7e-9b1d-3c5e7f9a1b2c\""})
    void readsAnAsciiUuid(String key) {
        var request = new MockHttpServletRequest("POST", "/v1/operations");
        request.addHeader(OperationController.IDEMPOTENCY_KEY, key);

        assertThat(IdempotencyKey.from(new StrictHttpFirewall().getFirewalledRequest(request)))
                .hasToString("8e7b6d9e-2f4c-4a7e-9b1d-3c5e7f9a1b2c");
    }
}
