package dev.opledger.cli.http;

import dev.opledger.operation.OperationId;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A device's side of the node's API over HTTP/1.1 (no upgrade headers, so the requests carry the
 * protocol's headers and nothing surprising). Every call carries {@code Authorization: Bearer}.
 */
public final class NodeClient implements AutoCloseable {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    private static final String JSON_TYPE = "application/json";
    private static final int CHALLENGE_BYTES = 32;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String server;
    private final HttpClient http;

    public NodeClient(URI server) {
        this.server = server.toString().replaceAll("/+$", "");
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** {@code POST /v1/attest/challenges}: a fresh single-use challenge, or an exception saying why not. */
    public Challenge challenge(String token) {
        Reply reply = send(request("/v1/attest/challenges", token).POST(BodyPublishers.noBody()));
        if (reply.status() != 201) {
            throw new UnexpectedReplyException("the node issued no challenge: HTTP " + reply.status(), reply);
        }
        try {
            JsonNode body = JSON.readTree(reply.body());
            JsonNode challenge = body.get("challenge");
            JsonNode expiresAt = body.get("expiresAt");
            if (challenge == null || !challenge.isString()) {
                throw new UnexpectedReplyException("the node's challenge reply has no challenge", reply);
            }
            var issued = new Challenge(challenge.asString(), expiresAt == null ? "" : expiresAt.asString());
            if (issued.bytes().length != CHALLENGE_BYTES) {
                throw new UnexpectedReplyException("the node's challenge is not " + CHALLENGE_BYTES + " bytes", reply);
            }
            return issued;
        } catch (JacksonException | IllegalArgumentException e) { // not JSON, or not base64url
            throw new UnexpectedReplyException("the node's challenge reply is not JSON with a base64url challenge", reply);
        }
    }

    /** {@code POST /v1/attest/keys} with the keyId, the attestation object and the challenge it answers. */
    public Reply registerKey(String token, byte[] keyId, byte[] attestationObject, Challenge challenge) {
        Map<String, String> body = new LinkedHashMap<>();
        body.put("keyId", Base64.getEncoder().encodeToString(keyId));
        body.put("attestationObject", Base64.getEncoder().encodeToString(attestationObject));
        body.put("challenge", challenge.text());
        return send(request("/v1/attest/keys", token)
                .header("Content-Type", JSON_TYPE)
                .POST(BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body))));
    }

    /** {@code POST /v1/operations}: one attempt, the body sent byte for byte as given. */
    public Reply submit(String token, AttemptHeaders attempt, byte[] body) {
        return submit(token, attempt, body, Duration.ZERO);
    }

    /** As {@link #submit(String, AttemptHeaders, byte[])}, answered once the operation settled or after {@code wait}. */
    public Reply submit(String token, AttemptHeaders attempt, byte[] body, Duration wait) {
        return send(request("/v1/operations", token, wait)
                .header("Idempotency-Key", attempt.idempotencyKey())
                .header("App-Attest-Key-Id", attempt.keyIdHeader())
                .header("App-Attest-Challenge", attempt.challengeHeader())
                .header("App-Attest-Assertion", attempt.assertionHeader())
                .header("Content-Type", JSON_TYPE)
                .POST(BodyPublishers.ofByteArray(body)));
    }

    /**
     * {@code POST /v1/operations} without App Attest headers (a node in mode optional or off),
     * answered once the operation settled or after {@code wait} (none when zero).
     */
    public Reply submitUnattested(String token, OperationId operationId, byte[] body, Duration wait) {
        return send(request("/v1/operations", token, wait)
                .header("Idempotency-Key", operationId.toString())
                .header("Content-Type", JSON_TYPE)
                .POST(BodyPublishers.ofByteArray(body)));
    }

    /** {@code GET /v1/operations/{operationId}}. */
    public Reply operation(String token, OperationId operationId) {
        return operation(token, operationId, Duration.ZERO);
    }

    /** {@code GET /v1/operations/{operationId}}, answered once the operation settled or after {@code wait} (none when zero). */
    public Reply operation(String token, OperationId operationId, Duration wait) {
        return send(request("/v1/operations/" + operationId, token, wait).GET());
    }

    @Override
    public void close() {
        http.close();
    }

    private HttpRequest.Builder request(String path, String token) {
        return request(path, token, Duration.ZERO);
    }

    // RFC 7240: the node holds the answer up to the wait (and its own bound); the timeout covers both
    private HttpRequest.Builder request(String path, String token, Duration wait) {
        var builder = HttpRequest.newBuilder(URI.create(server + path))
                .timeout(REQUEST_TIMEOUT.plus(wait))
                .header("Authorization", "Bearer " + token);
        return wait.isPositive() ? builder.header("Prefer", "wait=" + wait.toSeconds()) : builder;
    }

    private Reply send(HttpRequest.Builder builder) {
        HttpRequest request = builder.build();
        try {
            var response = http.send(request, BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new Reply(response.statusCode(), response.headers().map(), response.body());
        } catch (IOException e) {
            throw new NodeUnreachableException(request.uri(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NodeUnreachableException(request.uri(), e);
        }
    }
}
