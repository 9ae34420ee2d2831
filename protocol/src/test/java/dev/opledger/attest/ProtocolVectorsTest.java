package dev.opledger.attest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.cbor.CBORMapper;

/**
 * The shared vector file (vectors/protocol.json, which ios-companion's tests read too) holds what
 * the server computes, its assertion verifies, and docs/protocol.md shows that same file.
 */
class ProtocolVectorsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static JsonNode documented() throws IOException {
        try (InputStream in = ProtocolVectorsTest.class.getResourceAsStream(ProtocolVectors.FILE)) {
            return JSON.readTree(in);
        }
    }

    @Test
    void theDocumentShowsTheVectorFile() throws IOException {
        String document = Files.readString(Path.of("..", "docs", "protocol.md"));
        int begin = document.indexOf("```json", document.indexOf("<!-- vectors:begin -->")) + "```json".length();
        int end = document.indexOf("```", begin);

        assertThat(JSON.readTree(document.substring(begin, end))).isEqualTo(documented());
    }

    @Test
    void theDocumentedHashesAreTheServers() throws IOException {
        JsonNode documented = documented();
        Map<String, Object> computed = ProtocolVectors.deterministic();

        assertThat(documented.get("payloadHash")).isEqualTo(JSON.valueToTree(computed.get("payloadHash")));
        assertThat(documented.get("attempt")).isEqualTo(JSON.valueToTree(computed.get("attempt")));
        assertThat(documented.get("registration")).isEqualTo(JSON.valueToTree(computed.get("registration")));
        JsonNode assertion = documented.get("assertion");
        JSON.<JsonNode>valueToTree(computed.get("assertion")).propertyNames()
                .forEach(field -> assertThat(assertion.get(field)).as(field)
                        .isEqualTo(JSON.<JsonNode>valueToTree(computed.get("assertion")).get(field)));
    }

    @Test
    void theDocumentedAssertionVerifies() throws IOException {
        JsonNode vector = documented().get("assertion");
        HexFormat hex = HexFormat.of();
        byte[] assertion = Base64.getDecoder().decode(vector.get("assertion").asString());

        var verified = AppAttestVerifier.verifyAssertion(assertion, hex.parseHex(vector.get("clientDataHash").asString()),
                hex.parseHex(vector.get("publicKey").asString()), new AppId(vector.get("appId").asString()), 0);

        assertThat(verified.counter()).isEqualTo(vector.get("counter").asLong());
        JsonNode cbor = CBORMapper.builder().build().readTree(assertion);
        assertThat(hex.formatHex(cbor.get("signature").binaryValue())).isEqualTo(vector.get("signature").asString());
        assertThat(hex.formatHex(cbor.get("authenticatorData").binaryValue()))
                .isEqualTo(vector.get("authenticatorData").asString());
    }
}
