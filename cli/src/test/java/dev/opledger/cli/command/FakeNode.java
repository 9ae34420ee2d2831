package dev.opledger.cli.command;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.opledger.attest.AppAttestVerifier;
import dev.opledger.attest.AppId;
import dev.opledger.attest.AssertionRejectedException;
import dev.opledger.attest.AttestEnvironment;
import dev.opledger.attest.AttestationRejectedException;
import dev.opledger.attest.ClientData;
import dev.opledger.attest.TrustRoots;
import dev.opledger.cli.device.DevAuthority;
import dev.opledger.cli.token.LocalTokens;
import dev.opledger.operation.Command;
import dev.opledger.operation.OperationId;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A stand-in node on the loopback interface that follows PROTOCOL.md with the backend's verifier
 * (trusting the development root) and records every request byte for byte, so tests see exactly
 * what the CLI sends. One handler thread: no concurrency of its own.
 */
final class FakeNode implements AutoCloseable {

    static final AppId APP = new AppId("OPLEDGERDV.dev.opledger.simulator");
    private static final AppAttestVerifier VERIFIER = TrustRoots.verifier(List.of(DevAuthority.ROOT_LOCATION));
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final SecureRandom RANDOM = new SecureRandom();

    record Request(String method, String path, Map<String, List<String>> headers, byte[] body) {
        String header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null ? "" : String.join(",", values);
        }
    }

    record Key(byte[] publicKey, long counter, byte[] extensionData) {
    }

    final List<Request> requests = Collections.synchronizedList(new ArrayList<>());
    final List<String> issuedChallenges = Collections.synchronizedList(new ArrayList<>());
    final List<Long> acceptedCounters = Collections.synchronizedList(new ArrayList<>());
    final Map<String, Key> keys = Collections.synchronizedMap(new HashMap<>());
    volatile Set<AppId> apps = Set.of(APP);
    volatile boolean refuseChallenges;
    volatile boolean loseNextOperationReply;

    private final Set<String> unusedChallenges = Collections.synchronizedSet(new HashSet<>());
    private final Map<String, String> payloadHashes = Collections.synchronizedMap(new HashMap<>());
    private final HttpServer server;

    private FakeNode(HttpServer server) {
        this.server = server;
    }

    static FakeNode start() throws IOException {
        var node = new FakeNode(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0));
        node.server.createContext("/", node::handle);
        node.server.start();
        return node;
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    List<Request> requests(String method, String path) {
        synchronized (requests) {
            return requests.stream().filter(r -> r.method().equals(method) && r.path().equals(path)).toList();
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        Map<String, List<String>> headers = new TreeMap<>();
        exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), List.copyOf(values)));
        var request = new Request(exchange.getRequestMethod(), exchange.getRequestURI().getPath(), headers,
                exchange.getRequestBody().readAllBytes());
        requests.add(request);
        String subject;
        try {
            subject = TokenCommandTest.decode(LocalTokens.DEFAULT_SECRET,
                    request.header("Authorization").replaceFirst("^Bearer ", "")).getSubject();
        } catch (RuntimeException e) {
            reply(exchange, 401, Map.of("type", "unauthenticated"), Map.of());
            return;
        }
        switch (request.method() + " " + request.path()) {
            case "POST /v1/attest/challenges" -> challenge(exchange);
            case "POST /v1/attest/keys" -> registerKey(exchange, request);
            case "POST /v1/operations" -> submit(exchange, request);
            default -> show(exchange, request, subject);
        }
    }

    private void challenge(HttpExchange exchange) throws IOException {
        if (refuseChallenges) {
            reply(exchange, 503, Map.of("type", "unavailable"), Map.of());
            return;
        }
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        String challenge = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        issuedChallenges.add(challenge);
        unusedChallenges.add(challenge);
        reply(exchange, 201, Map.of("challenge", challenge, "expiresAt", Instant.now().plusSeconds(300).toString()),
                Map.of());
    }

    private void registerKey(HttpExchange exchange, Request request) throws IOException {
        JsonNode body = JSON.readTree(request.body());
        String challenge = body.get("challenge").asString();
        if (!unusedChallenges.remove(challenge)) {
            reply(exchange, 401, Map.of("type", "challenge-invalid"), Map.of());
            return;
        }
        byte[] keyId = Base64.getDecoder().decode(body.get("keyId").asString());
        try {
            var verified = VERIFIER.verifyAttestation(Base64.getDecoder().decode(body.get("attestationObject").asString()),
                    keyId, ClientData.hashOfRegistration(Base64.getUrlDecoder().decode(challenge)), apps,
                    AttestEnvironment.DEVELOPMENT, Instant.now());
            keys.put(body.get("keyId").asString(), new Key(verified.publicKey(), 0, verified.extensionData()));
            reply(exchange, 201, Map.of("keyId", body.get("keyId").asString()), Map.of());
        } catch (AttestationRejectedException e) {
            reply(exchange, 401, Map.of("type", "attestation-invalid", "detail", e.check().name()), Map.of());
        }
    }

    private void submit(HttpExchange exchange, Request request) throws IOException {
        Key key = keys.get(request.header("App-Attest-Key-Id"));
        String challenge = request.header("App-Attest-Challenge");
        if (key == null || !unusedChallenges.remove(challenge)) {
            reply(exchange, 401, Map.of("type", key == null ? "key-unknown" : "challenge-invalid"), Map.of());
            return;
        }
        var operationId = OperationId.parse(request.header("Idempotency-Key"));
        var payloadHash = Command.parse(request.body()).payloadHash();
        try {
            long counter = AppAttestVerifier.verifyAssertion(
                    Base64.getDecoder().decode(request.header("App-Attest-Assertion")),
                    ClientData.hashOfAttempt(Base64.getUrlDecoder().decode(challenge), operationId, payloadHash),
                    key.publicKey(), APP, key.counter()).counter();
            keys.put(request.header("App-Attest-Key-Id"), new Key(key.publicKey(), counter, key.extensionData()));
            acceptedCounters.add(counter);
        } catch (AssertionRejectedException e) {
            reply(exchange, 401, Map.of("type", "assertion-invalid", "detail", e.check().name()), Map.of());
            return;
        }
        String known = payloadHashes.putIfAbsent(operationId.toString(), payloadHash.hex());
        if (loseNextOperationReply) {
            loseNextOperationReply = false;
            throw new IllegalStateException("the reply is lost: the connection closes without one");
        }
        var body = Map.of("operationId", operationId.toString(), "payloadHash", payloadHash.hex());
        if (known == null) {
            reply(exchange, 202, body, Map.of("Location", "/v1/operations/" + operationId));
        } else if (known.equals(payloadHash.hex())) {
            reply(exchange, 200, body, Map.of("Idempotent-Replayed", "true"));
        } else {
            reply(exchange, 422, Map.of("type", "key-reuse"), Map.of());
        }
    }

    private void show(HttpExchange exchange, Request request, String subject) throws IOException {
        String id = request.path().replaceFirst("^/v1/operations/", "");
        String payloadHash = payloadHashes.get(id);
        if (!request.method().equals("GET") || payloadHash == null) {
            reply(exchange, 404, Map.of("type", "not-found"), Map.of());
            return;
        }
        reply(exchange, 200, Map.of("operationId", id, "payloadHash", payloadHash, "subject", subject), Map.of());
    }

    private static void reply(HttpExchange exchange, int status, Map<String, String> body, Map<String, String> headers)
            throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(new TreeMap<>(body));
        exchange.getResponseHeaders().set("Content-Type", status >= 400 ? "application/problem+json" : "application/json");
        headers.forEach(exchange.getResponseHeaders()::set);
        exchange.sendResponseHeaders(status, bytes.length);
        try (var out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
