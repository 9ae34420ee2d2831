package dev.opledger.cli.command;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;

/**
 * An attestation and an assertion captured from a real iPhone, from the backend's test-jar
 * ({@code attest/vectors/*.yaml}, veehaitch/devicecheck-appattest, Apache License 2.0), as the
 * base64 text the CLI takes.
 */
record RealSample(String name, String app, String keyId, String attestation, String attestationClientData,
        String attestedAt, String assertion, String assertionClientData, long counter, String publicKeyPem) {

    static List<RealSample> all() {
        return List.of(load("ios-14.2.yaml"), load("ios-14.4.yaml"));
    }

    @SuppressWarnings("unchecked")
    private static RealSample load(String file) {
        Map<String, Object> attestation = Map.of();
        Map<String, Object> assertion = Map.of();
        try (InputStream in = RealSample.class.getResourceAsStream("/attest/vectors/" + file)) {
            if (in == null) {
                throw new IllegalStateException("the backend's test-jar has no attest/vectors/" + file);
            }
            for (Object document : new Yaml().loadAll(new String(in.readAllBytes(), StandardCharsets.UTF_8))) {
                var fields = (Map<String, Object>) document;
                if ("attestation".equals(fields.get("type"))) {
                    attestation = fields;
                } else if ("assertion".equals(fields.get("type"))) {
                    assertion = fields;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new RealSample(file, attestation.get("teamIdentifier") + "." + attestation.get("bundleIdentifier"),
                text(attestation, "keyIdBase64"), text(attestation, "attestationBase64"),
                text(attestation, "clientDataBase64"), (String) attestation.get("timestamp"),
                text(assertion, "assertionBase64"), text(assertion, "clientDataBase64"),
                ((Number) assertion.get("counter")).longValue(), (String) attestation.get("publicKey"));
    }

    private static String text(Map<String, Object> fields, String name) {
        return ((String) fields.get(name)).replaceAll("\\s", "");
    }

    @Override
    public String toString() {
        return name;
    }
}
