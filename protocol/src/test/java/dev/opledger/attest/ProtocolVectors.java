package dev.opledger.attest;

import dev.opledger.attest.internal.Digests;
import dev.opledger.operation.Command;
import dev.opledger.operation.OperationId;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.math.BigInteger;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPrivateKeySpec;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bouncycastle.jce.ECNamedCurveTable;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.cbor.CBORMapper;

/**
 * The test vectors (vectors/protocol.json, shown in docs/protocol.md), computed from fixed inputs
 * by the code the server runs. {@code main} prints the file's JSON (its assertion is signed anew
 * each time: ECDSA signatures are randomised); {@link ProtocolVectorsTest} checks the file and the
 * document against it.
 */
final class ProtocolVectors {

    /** The vector file on the test classpath: protocol/src/test/resources/vectors/protocol.json. */
    static final String FILE = "/vectors/protocol.json";

    static final HexFormat HEX = HexFormat.of();

    static final List<String> BODIES = List.of(
            "{\"type\":\"checkout\",\"arguments\":{\"sku\":\"SKU-ESPRESSO\",\"quantity\":2,\"amount\":99.80,"
                    + "\"currency\":\"EUR\",\"recipient\":\"ann@example.com\"}}",
            "{ \"arguments\": { \"recipient\": \"ann@example.com\", \"currency\": \"EUR\", \"amount\": 9.98e1, "
                    + "\"quantity\": 2.0, \"sku\": \"SKU-ESPRESSO\" }, \"type\": \"checkout\" }",
            "{\"type\":\"message.send\",\"arguments\":{\"to\":\"+4915112345678\",\"text\":\"Grüße, \\u20ac 5 \\ud83d\\ude00\","
                    + "\"amount\":1e21,\"ratio\":0.000001,\"nested\":{\"b\":[true,null,-0],\"a\":\"\\u000f\"}}}");

    static final String CHALLENGE = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"; // bytes 0x00..0x1f
    static final String OPERATION_ID = "8e7b6d9e-2f4c-4a7e-9b1d-3c5e7f9a1b2c";
    static final String APP_ID = "OPLEDGERDV.dev.opledger.simulator";
    static final long COUNTER = 1;
    /** A P-256 private scalar for the vectors only, never a real key. */
    static final String PRIVATE_SCALAR = "5d7c6f5e4b3a29181706f5e4d3c2b1a09f8e7d6c5b4a39281716f5e4d3c2b1a0";

    private ProtocolVectors() {
    }

    /** Everything but the assertion's signature, which is checked by verifying it. */
    static Map<String, Object> deterministic() {
        Map<String, Object> vectors = new LinkedHashMap<>();
        vectors.put("payloadHash", BODIES.stream().map(body -> {
            Command command = Command.parse(body.getBytes(StandardCharsets.UTF_8));
            Map<String, Object> vector = new LinkedHashMap<>();
            vector.put("body", body);
            vector.put("canonical", command.canonicalJson());
            vector.put("payloadHash", command.payloadHash().hex());
            return vector;
        }).toList());
        byte[] challenge = Base64.getUrlDecoder().decode(CHALLENGE);
        var operationId = OperationId.parse(OPERATION_ID);
        var payloadHash = Command.parse(BODIES.getFirst().getBytes(StandardCharsets.UTF_8)).payloadHash();
        Map<String, Object> attempt = new LinkedHashMap<>();
        attempt.put("challenge", CHALLENGE);
        attempt.put("operationId", OPERATION_ID);
        attempt.put("operationIdBytes", HEX.formatHex(operationId.bytes()));
        attempt.put("payloadHash", payloadHash.hex());
        attempt.put("clientData", HEX.formatHex(ClientData.ofAttempt(challenge, operationId, payloadHash)));
        attempt.put("clientDataHash", HEX.formatHex(ClientData.hashOfAttempt(challenge, operationId, payloadHash)));
        vectors.put("attempt", attempt);
        Map<String, Object> registration = new LinkedHashMap<>();
        registration.put("challenge", CHALLENGE);
        registration.put("clientDataHash", HEX.formatHex(ClientData.hashOfRegistration(challenge)));
        vectors.put("registration", registration);
        byte[] authenticatorData = authenticatorData();
        Map<String, Object> assertion = new LinkedHashMap<>();
        assertion.put("appId", APP_ID);
        assertion.put("rpIdHash", HEX.formatHex(new AppId(APP_ID).rpIdHash()));
        assertion.put("publicKey", HEX.formatHex(publicKey()));
        assertion.put("keyId", Base64.getEncoder().encodeToString(Digests.sha256(publicKey())));
        assertion.put("counter", (int) COUNTER);
        assertion.put("authenticatorData", HEX.formatHex(authenticatorData));
        assertion.put("clientDataHash", attempt.get("clientDataHash"));
        assertion.put("nonce", HEX.formatHex(Digests.sha256(authenticatorData,
                ClientData.hashOfAttempt(challenge, operationId, payloadHash))));
        vectors.put("assertion", assertion);
        return vectors;
    }

    static byte[] authenticatorData() {
        return ByteBuffer.allocate(37).put(new AppId(APP_ID).rpIdHash()).put((byte) 0).putInt((int) COUNTER).array();
    }

    /** The public point of the fixed scalar (BouncyCastle's curve arithmetic). */
    static byte[] publicKey() {
        var point = ECNamedCurveTable.getParameterSpec("secp256r1").getG()
                .multiply(new BigInteger(PRIVATE_SCALAR, 16)).normalize();
        return point.getEncoded(false);
    }

    static PrivateKey privateKey() throws GeneralSecurityException {
        var parameters = AlgorithmParameters.getInstance("EC");
        parameters.init(new ECGenParameterSpec("secp256r1"));
        var curve = parameters.getParameterSpec(ECParameterSpec.class);
        return KeyFactory.getInstance("EC").generatePrivate(new ECPrivateKeySpec(new BigInteger(PRIVATE_SCALAR, 16), curve));
    }

    public static void main(String[] args) throws Exception {
        Map<String, Object> vectors = deterministic();
        @SuppressWarnings("unchecked")
        Map<String, Object> assertion = (Map<String, Object>) vectors.get("assertion");
        var signer = Signature.getInstance("SHA256withECDSA");
        signer.initSign(privateKey());
        signer.update(HEX.parseHex((String) assertion.get("nonce")));
        byte[] signature = signer.sign();
        assertion.put("signature", HEX.formatHex(signature));
        Map<String, Object> cbor = new LinkedHashMap<>();
        cbor.put("signature", signature);
        cbor.put("authenticatorData", authenticatorData());
        assertion.put("assertion", Base64.getEncoder().encodeToString(CBORMapper.builder().build().writeValueAsBytes(cbor)));
        System.out.println(JsonMapper.builder().build().writerWithDefaultPrettyPrinter().writeValueAsString(vectors));
    }
}
