package dev.opledger.attest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;

/**
 * Apple's own sample attestation (protocol/src/test/resources/vectors/apple-sample.yaml), whose
 * clientDataHash is its raw 21-byte challenge rather than a SHA-256. In protocol's test-jar for the
 * backend's and the CLI's tests.
 */
public record AppleSample(AppId app, byte[] keyId, byte[] attestation, byte[] clientDataHash, Instant at) {

    @SuppressWarnings("unchecked")
    public static AppleSample load() {
        try (InputStream in = AppleSample.class.getResourceAsStream("/vectors/apple-sample.yaml")) {
            var fields = (Map<String, Object>) new Yaml().load(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            return new AppleSample(
                    AppId.of((String) fields.get("teamIdentifier"), (String) fields.get("bundleIdentifier")),
                    bytes(fields, "keyIdBase64"), bytes(fields, "attestationBase64"),
                    bytes(fields, "clientDataHashBase64"), Instant.parse((String) fields.get("timestamp")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] bytes(Map<String, Object> fields, String name) {
        return Base64.getDecoder().decode(((String) fields.get(name)).replaceAll("\\s", ""));
    }
}
