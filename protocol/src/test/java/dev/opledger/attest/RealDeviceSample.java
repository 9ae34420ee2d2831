package dev.opledger.attest;

import dev.opledger.attest.internal.P256;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.spec.X509EncodedKeySpec;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;

/**
 * An attestation and an assertion captured from a real iPhone (protocol/src/test/resources/vectors,
 * from veehaitch/devicecheck-appattest, Apache License 2.0): the one loader of those files, in
 * protocol's test-jar for the backend's and the CLI's tests. {@code publicKey} is the 65-byte
 * point, {@code publicKeyPem} the same key as the samples give it.
 */
public record RealDeviceSample(String name, AppId app, byte[] keyId, byte[] attestation, byte[] attestationClientData,
        Instant attestedAt, byte[] assertion, byte[] assertionClientData, long assertionCounter, Instant assertedAt,
        byte[] publicKey, String publicKeyPem) {

    public static List<RealDeviceSample> all() {
        return List.of(load("ios-14.2.yaml"), load("ios-14.4.yaml"));
    }

    @SuppressWarnings("unchecked")
    public static RealDeviceSample load(String file) {
        Map<String, Object> attestation = null;
        Map<String, Object> assertion = null;
        try (InputStream in = RealDeviceSample.class.getResourceAsStream("/vectors/" + file)) {
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
        return new RealDeviceSample(file,
                AppId.of((String) attestation.get("teamIdentifier"), (String) attestation.get("bundleIdentifier")),
                bytes(attestation, "keyIdBase64"), bytes(attestation, "attestationBase64"),
                bytes(attestation, "clientDataBase64"), Instant.parse((String) attestation.get("timestamp")),
                bytes(assertion, "assertionBase64"), bytes(assertion, "clientDataBase64"),
                ((Number) assertion.get("counter")).longValue(), Instant.parse((String) assertion.get("timestamp")),
                uncompressed((String) attestation.get("publicKey")), (String) attestation.get("publicKey"));
    }

    private static byte[] bytes(Map<String, Object> fields, String name) {
        return Base64.getDecoder().decode(((String) fields.get(name)).replaceAll("\\s", ""));
    }

    private static byte[] uncompressed(String pem) {
        String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        try {
            var key = KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64)));
            return P256.uncompressed(key);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
