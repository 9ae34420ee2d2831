package dev.opledger.cli.command;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;

/**
 * Apple's own sample attestation, from the backend's test-jar ({@code attest/vectors/apple-sample.yaml}),
 * as the base64 text the CLI takes. Its clientDataHash is its 21-byte challenge itself.
 */
record AppleSample(String app, String keyId, String attestation, String clientDataHash, String at) {

    @SuppressWarnings("unchecked")
    static AppleSample load() {
        try (InputStream in = AppleSample.class.getResourceAsStream("/attest/vectors/apple-sample.yaml")) {
            if (in == null) {
                throw new IllegalStateException("the backend's test-jar has no attest/vectors/apple-sample.yaml");
            }
            var fields = (Map<String, Object>) new Yaml().load(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            return new AppleSample(fields.get("teamIdentifier") + "." + fields.get("bundleIdentifier"),
                    text(fields, "keyIdBase64"), text(fields, "attestationBase64"), text(fields, "clientDataHashBase64"),
                    (String) fields.get("timestamp"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String text(Map<String, Object> fields, String name) {
        return ((String) fields.get(name)).replaceAll("\\s", "");
    }

    /** The arguments of {@code verify attestation} for this sample, checked at {@code at}. */
    String[] verifyAttestation(String at) {
        return new String[] {"verify", "attestation", "--attestation", attestation, "--key-id", keyId,
            "--client-data-hash", clientDataHash, "--app", app, "--environment", "production", "--at", at};
    }
}
