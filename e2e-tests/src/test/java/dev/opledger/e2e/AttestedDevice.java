package dev.opledger.e2e;

import dev.opledger.attest.AppId;
import dev.opledger.attest.AttemptProof.Codec;
import dev.opledger.attest.AttestEnvironment;
import dev.opledger.attest.ClientData;
import dev.opledger.cli.device.DeviceVariant;
import dev.opledger.cli.device.SimulatedDevice;
import dev.opledger.operation.Command;
import dev.opledger.operation.OperationId;
import dev.opledger.testing.ApiClient;
import dev.opledger.testing.TestTokens;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/**
 * A subject with a simulated device, talking to a node as PROTOCOL.md says: challenges,
 * registration, and attempts whose parts a test may swap for an attacker's.
 */
final class AttestedDevice {

    static final AppId APP = new AppId("OPLEDGERDV.dev.opledger.simulator");

    final ApiClient api;
    /** The node it talks to, for a caller that writes the bytes itself. */
    final java.net.URI base;
    final String subject;
    final String token;
    final SimulatedDevice device;

    AttestedDevice(RunningNode node, String subject, DeviceVariant variant) {
        this.api = new ApiClient(node.base());
        this.base = node.base();
        this.subject = subject;
        this.token = TestTokens.mint(TestTokens.LOCAL_SECRET, claims -> claims.subject(subject));
        this.device = SimulatedDevice.create(APP, AttestEnvironment.DEVELOPMENT, variant, Clock.systemUTC());
    }

    AttestedDevice(RunningNode node, String subject, SimulatedDevice device) {
        this.api = new ApiClient(node.base());
        this.base = node.base();
        this.subject = subject;
        this.token = TestTokens.mint(TestTokens.LOCAL_SECRET, claims -> claims.subject(subject));
        this.device = device;
    }

    String keyId() {
        return Codec.toBase64(device.keyId());
    }

    byte[] challenge() {
        var response = api.send(api.request("/v1/attest/challenges", token, Map.of())
                .POST(HttpRequest.BodyPublishers.noBody()).build());
        if (response.statusCode() != 201) {
            throw new IllegalStateException("no challenge: " + response.statusCode() + " " + response.body());
        }
        return Codec.base64Url(ApiClient.json(response).get("challenge").asString(), "challenge");
    }

    HttpResponse<String> register() {
        return register(challenge());
    }

    HttpResponse<String> register(byte[] challenge) {
        byte[] attestation = device.attestation(ClientData.hashOfRegistration(challenge));
        return registerWith(attestation, challenge);
    }

    HttpResponse<String> registerWith(byte[] attestation, byte[] challenge) {
        String body = "{\"keyId\":\"" + keyId() + "\",\"attestationObject\":\"" + Codec.toBase64(attestation)
                + "\",\"challenge\":\"" + Codec.toBase64Url(challenge) + "\"}";
        return api.send(api.request("/v1/attest/keys", token, Map.of("Content-Type", "application/json"))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    /** One honest attempt: a fresh challenge and an assertion over this operationId and body. */
    Attempt attempt(String operationId, String body) {
        return attemptOver(challenge(), operationId, body);
    }

    /**
     * This device's assertion over a challenge it may not have been given (another subject's, a
     * used or an invented one), this operationId and body: what a device's owner can make.
     */
    Attempt attemptOver(byte[] challenge, String operationId, String body) {
        byte[] assertion = device.assertion(ClientData.hashOfAttempt(challenge, OperationId.parse(operationId),
                Command.parse(body.getBytes(StandardCharsets.UTF_8)).payloadHash()));
        return new Attempt(this, operationId, body, keyId(), Codec.toBase64Url(challenge), Codec.toBase64(assertion));
    }

    /** The headers and body of one attempt; a test replaces parts to play an attacker. */
    record Attempt(AttestedDevice sender, String operationId, String body, String keyId, String challenge,
            String assertion) {

        Attempt withBody(String other) {
            return new Attempt(sender, operationId, other, keyId, challenge, assertion);
        }

        Attempt withOperationId(String other) {
            return new Attempt(sender, other, body, keyId, challenge, assertion);
        }

        Attempt withKeyId(String other) {
            return new Attempt(sender, operationId, body, other, challenge, assertion);
        }

        Attempt sentBy(AttestedDevice other) {
            return new Attempt(other, operationId, body, keyId, challenge, assertion);
        }

        HttpResponse<String> send() {
            Map<String, String> headers = new HashMap<>();
            headers.put("Idempotency-Key", operationId);
            headers.put("Content-Type", "application/json");
            headers.put("App-Attest-Key-Id", keyId);
            headers.put("App-Attest-Challenge", challenge);
            headers.put("App-Attest-Assertion", assertion);
            return sender.api.send(sender.api.request("/v1/operations", sender.token, headers)
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build());
        }
    }
}
