package dev.opledger.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.attest.AttemptProof.Codec;
import dev.opledger.cli.device.DeviceVariant;
import dev.opledger.node.database.LocatedDatabase;
import dev.opledger.testing.DocumentedProblems;
import dev.opledger.testing.RawHttp;
import dev.opledger.testing.TestDatabase;
import dev.opledger.testing.TestTokens;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Hostile input, property-based (jqwik): generated malformed and adversarial requests against a
 * real node — the executable jar, profile {@code local}, so App Attest is required on every REST
 * attempt — at {@code /v1/operations} (submissions with forged, swapped, stale or missing App
 * Attest material, tampered bodies, bad encodings, sizes and content types; reads and cancels of
 * other subjects' operations; bad tokens: none, {@code alg: none}, wrong signature, expired) and
 * at {@code /mcp} (malformed JSON-RPC, wrong content types, invalid UTF-8 and UTF-16 bodies,
 * bodies over the limit, tasks/get, tasks/cancel and tasks/update of another subject's task).
 *
 * <p>Every generated request must be refused: none answers 5xx, a REST refusal is a problem+json
 * whose type docs/problems.md lists and whose status is the response's, an MCP refusal is a
 * JSON-RPC error (a 401 before MCP is the API's problem), and the node's state is what it was —
 * every table's row count (the challenges the test itself asks for excepted), the rows of
 * {@code operation}, {@code mcp_task} and {@code attest_key} byte for byte, and the tool server's
 * effect log. The node runs no workers, so nothing moves but what a request moves.
 *
 * <p>jqwik draws a seed per run and prints it on failure (with the shrunk request); the number of
 * tries per property is {@code -Djqwik.tries.default=<n>} (the prove profile sets 600 each).
 * Backend's {@code HostileInputIT} and {@code HostileMcpInputIT} cover the same edge in-process
 * without App Attest; this proof adds the attested path, encodings and content types, on the jar.
 */
class HostileInputProof {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String MCP_VERSION = "2026-07-28";
    private static final String TASKS = "io.modelcontextprotocol/tasks";
    private static final Set<String> DOCUMENTED = DocumentedProblems.types();
    private static final AtomicInteger REST_TRIES = new AtomicInteger();
    private static final AtomicInteger MCP_TRIES = new AtomicInteger();
    private static final Map<String, Integer> STATUSES = new java.util.concurrent.ConcurrentSkipListMap<>();
    /** Tallies over every try (jqwik stops a property at its first failing try, then shrinks it). */
    private static final AtomicInteger SERVER_ERRORS = new AtomicInteger();
    private static final AtomicInteger ACCEPTED = new AtomicInteger();
    private static final AtomicInteger STATE_CHANGES = new AtomicInteger();
    private static final AtomicInteger FAILED_PROPERTIES = new AtomicInteger();

    private static LocatedDatabase database;
    private static ChildNode node;
    private static RawHttp http;
    private static AttestedDevice alice;
    private static AttestedDevice bob;
    private static AttestedDevice eve;
    /** Alice's accepted operations (eve reads and cancels them), and her MCP tasks. */
    private static final List<String> ALICE_OPERATIONS = new ArrayList<>();
    private static final List<String> ALICE_TASKS = new ArrayList<>();
    /** An attempt of eve's that was accepted, whose challenge is now used. */
    private static AttestedDevice.Attempt eveAccepted;
    private static ProofReport.Progress restProgress;
    private static ProofReport.Progress mcpProgress;
    private static long started;

    @BeforeContainer
    static void startTheNodeAndItsSubjects() throws Exception {
        started = System.nanoTime();
        database = TestDatabase.fresh();
        node = NodeProcess.startReady("prove-hostile", NodeProcess.extractedJar(), List.of(), List.of(),
                Duration.ofSeconds(120),
                "--spring.datasource.url=" + database.url(),
                "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password(),
                "--spring.datasource.hikari.maximum-pool-size=6",
                "--opledger.reference-tools.port=0",
                // nothing runs the accepted operations: the state changes only by a request
                "--opledger.worker.enabled=false");
        http = new RawHttp(node.node().base().getPort());
        String run = Long.toHexString(System.nanoTime());
        alice = new AttestedDevice(node.node(), "prove-alice-" + run, DeviceVariant.APPLE);
        bob = new AttestedDevice(node.node(), "prove-bob-" + run, DeviceVariant.APPLE);
        eve = new AttestedDevice(node.node(), "prove-eve-" + run, DeviceVariant.APPLE);
        for (AttestedDevice device : List.of(alice, bob, eve)) {
            assertThat(device.register().statusCode()).isEqualTo(201);
        }
        for (int i = 0; i < 3; i++) {
            String operationId = UUID.randomUUID().toString();
            var response = alice.attempt(operationId, body(1 + i, "12.50")).send();
            assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
            ALICE_OPERATIONS.add(operationId);
            var call = mcp(alice.token, "tools/call", "checkout",
                    "{\"name\":\"checkout\",\"arguments\":" + mcpArguments(UUID.randomUUID().toString(), "7.00") + ","
                            + meta(true) + "}");
            var answer = http.send(call);
            assertThat(answer.status()).as(answer.text()).isEqualTo(200);
            ALICE_TASKS.add(jsonRpc(answer).path("result").path("taskId").asString());
        }
        String operationId = UUID.randomUUID().toString();
        eveAccepted = eve.attempt(operationId, body(1, "3.00"));
        assertThat(eveAccepted.send().statusCode()).isEqualTo(202);
        int tries = Integer.getInteger("jqwik.tries.default", 1000);
        restProgress = new ProofReport.Progress("hostile-rest", tries);
        mcpProgress = new ProofReport.Progress("hostile-mcp", tries);
    }

    @AfterContainer
    static void stopTheNode() {
        int rest = REST_TRIES.get();
        int mcp = MCP_TRIES.get();
        if (rest + mcp > 0) {
            ProofReport.measured("hostile", "requests generated (REST + MCP)", rest + " + " + mcp);
            ProofReport.figure("hostile", "responses ≥ 500", SERVER_ERRORS.get(), "0", SERVER_ERRORS.get() == 0);
            ProofReport.figure("hostile", "hostile requests answered 2xx / with a result", ACCEPTED.get(), "0",
                    ACCEPTED.get() == 0);
            ProofReport.figure("hostile", "requests after which the state differed", STATE_CHANGES.get(), "0",
                    STATE_CHANGES.get() == 0);
            int failed = Integer.bitCount(FAILED_PROPERTIES.get());
            ProofReport.figure("hostile", "properties failed (of 2: REST problem+json, MCP JSON-RPC error)", failed,
                    "0", failed == 0);
            ProofReport.measured("hostile", "statuses answered", STATUSES.entrySet().stream()
                    .map(entry -> entry.getKey() + "×" + entry.getValue()).collect(Collectors.joining(" ")));
            ProofReport.measured("hostile", "time (node start included)",
                    ProofReport.seconds(Duration.ofNanos(System.nanoTime() - started)));
        }
        if (node != null) {
            node.close();
        }
    }

    // ---- /v1 -------------------------------------------------------------------------------------

    enum RestBase { SUBMIT, READ_OTHERS, CANCEL_OTHERS, READ_OWN, CANCEL_OWN }

    enum Kind { NONE, TOKEN, ATTEST, BODY }

    enum RestMutation {
        NONE(Kind.NONE), NO_TOKEN(Kind.TOKEN), ALG_NONE(Kind.TOKEN), WRONG_SIGNATURE(Kind.TOKEN), EXPIRED(Kind.TOKEN),
        GARBAGE_TOKEN(Kind.TOKEN), OTHER_SCHEME(Kind.TOKEN),
        NO_KEY_ID(Kind.ATTEST), NO_CHALLENGE(Kind.ATTEST), NO_ASSERTION(Kind.ATTEST), OTHER_SUBJECTS_KEY(Kind.ATTEST),
        UNKNOWN_KEY(Kind.ATTEST), MALFORMED_KEY(Kind.ATTEST), OTHER_SUBJECTS_CHALLENGE(Kind.ATTEST),
        USED_CHALLENGE(Kind.ATTEST), UNKNOWN_CHALLENGE(Kind.ATTEST), MALFORMED_CHALLENGE(Kind.ATTEST),
        FLIPPED_ASSERTION(Kind.ATTEST), TRUNCATED_ASSERTION(Kind.ATTEST), RANDOM_ASSERTION(Kind.ATTEST),
        MALFORMED_ASSERTION(Kind.ATTEST), ASSERTION_FOR_ANOTHER_OPERATION(Kind.ATTEST), REPLAYED_ATTEMPT(Kind.ATTEST),
        TAMPERED_BODY(Kind.BODY), TRUNCATED_JSON(Kind.BODY), WRONG_CONTENT_TYPE(Kind.BODY), UTF16_BODY(Kind.BODY),
        LATIN1_BYTE(Kind.BODY), GZIP_CLAIMED(Kind.BODY), HUGE_BODY(Kind.BODY), UNKNOWN_TYPE(Kind.BODY),
        INVALID_ARGUMENTS(Kind.BODY), KEY_NOT_A_UUID(Kind.BODY);

        final Kind kind;

        RestMutation(Kind kind) {
            this.kind = kind;
        }

        boolean appliesTo(RestBase base) {
            return switch (kind) {
                case NONE -> base == RestBase.READ_OTHERS || base == RestBase.CANCEL_OTHERS;
                case TOKEN -> true;
                case ATTEST, BODY -> base == RestBase.SUBMIT;
            };
        }
    }

    record RestAttack(RestBase base, RestMutation mutation, int variant) {
    }

    @Provide
    Arbitrary<RestAttack> restAttacks() {
        return Combinators.combine(Arbitraries.of(RestBase.class), Arbitraries.of(RestMutation.class),
                Arbitraries.integers().between(0, 9999)).as(RestAttack::new)
                .filter(attack -> attack.mutation().appliesTo(attack.base()));
    }

    @Property(shrinking = ShrinkingMode.BOUNDED, maxDiscardRatio = 20)
    void everyHostileRestRequestIsRefusedWithADocumentedProblemAndChangesNothing(
            @ForAll("restAttacks") RestAttack attack) throws Exception {
        REST_TRIES.incrementAndGet();
        var random = new Random(attack.variant());
        RawHttp.Request request = restRequest(attack, random);
        String before = fingerprint();
        RawHttp.Response response = http.send(request);
        STATUSES.merge(Integer.toString(response.status()), 1, Integer::sum);
        restProgress.step("last: " + attack.base() + " " + attack.mutation() + " → " + response.status());
        String after = fingerprint();
        tally(response.status() < 300, response.status(), !after.equals(before));

        try {
            assertThat(response.status()).as("%s answered %s", attack, response.text()).isBetween(400, 499);
            assertProblem(attack, response);
            assertThat(after).as("the node's state after %s", attack).isEqualTo(before);
        } catch (AssertionError e) {
            FAILED_PROPERTIES.updateAndGet(failed -> failed | 1);
            throw e;
        }
    }

    private static void tally(boolean accepted, int status, boolean changed) {
        if (status >= 500) {
            SERVER_ERRORS.incrementAndGet();
        }
        if (accepted) {
            ACCEPTED.incrementAndGet();
        }
        if (changed) {
            STATE_CHANGES.incrementAndGet();
        }
    }

    private static RawHttp.Request restRequest(RestAttack attack, Random random) {
        String subjectToken;
        RawHttp.Request request;
        String subject;
        switch (attack.base()) {
            case SUBMIT -> {
                subject = eve.subject;
                subjectToken = eve.token;
                request = submission(attack, random);
            }
            case READ_OTHERS, CANCEL_OTHERS -> {
                subject = eve.subject;
                subjectToken = eve.token;
                String path = "/v1/operations/" + ALICE_OPERATIONS.get(random.nextInt(ALICE_OPERATIONS.size()))
                        + (attack.base() == RestBase.CANCEL_OTHERS ? "/cancel" : "");
                request = new RawHttp.Request(attack.base() == RestBase.READ_OTHERS ? "GET" : "POST", path);
            }
            default -> {
                subject = alice.subject;
                subjectToken = alice.token;
                String path = "/v1/operations/" + ALICE_OPERATIONS.get(random.nextInt(ALICE_OPERATIONS.size()))
                        + (attack.base() == RestBase.CANCEL_OWN ? "/cancel" : "");
                request = new RawHttp.Request(attack.base() == RestBase.READ_OWN ? "GET" : "POST", path);
            }
        }
        String authorization = attack.mutation().kind == Kind.TOKEN
                ? forgedAuthorization(attack.mutation(), subject, random) : "Bearer " + subjectToken;
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return request;
    }

    /** Eve's attested submission of a new checkout, with the attack's change to its App Attest material or body. */
    private static RawHttp.Request submission(RestAttack attack, Random random) {
        String operationId = UUID.randomUUID().toString();
        String body = body(1 + random.nextInt(5), "19.90");
        AttestedDevice.Attempt attempt = switch (attack.mutation()) {
            case OTHER_SUBJECTS_CHALLENGE -> eve.attemptOver(bob.challenge(), operationId, body);
            case USED_CHALLENGE -> eve.attemptOver(Codec.base64Url(eveAccepted.challenge(), "challenge"), operationId,
                    body);
            case UNKNOWN_CHALLENGE -> eve.attemptOver(bytes(random, 32), operationId, body);
            case UNKNOWN_TYPE -> signed(operationId, body, "{\"type\":\"" + pick(random, "no-such-type", "CHECKOUT",
                    "checkout ", "", "../checkout", "checkout\\u0000") + "\",\"arguments\":" + arguments(1, "1.00") + "}");
            case INVALID_ARGUMENTS -> signed(operationId, body, "{\"type\":\"checkout\",\"arguments\":" + pick(random,
                    arguments(-1, "1.00"), arguments(0, "1.00"), arguments(1, "-5.00"), arguments(1, "1.001"),
                    "{}", "[]", "{\"sku\":\"SKU-ESPRESSO\"}", arguments(1, "1.00").replace("}", ",\"extra\":1}"),
                    arguments(1, "1.00").replace("\"EUR\"", "\"EURO\"")) + "}");
            case REPLAYED_ATTEMPT -> eveAccepted;
            default -> eve.attempt(operationId, body);
        };
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Idempotency-Key", attempt.operationId());
        headers.put("Content-Type", "application/json");
        headers.put("App-Attest-Key-Id", attempt.keyId());
        headers.put("App-Attest-Challenge", attempt.challenge());
        headers.put("App-Attest-Assertion", attempt.assertion());
        byte[] wire = attempt.body().getBytes(StandardCharsets.UTF_8);
        switch (attack.mutation()) {
            case NO_KEY_ID -> headers.remove("App-Attest-Key-Id");
            case NO_CHALLENGE -> headers.remove("App-Attest-Challenge");
            case NO_ASSERTION -> headers.remove("App-Attest-Assertion");
            case OTHER_SUBJECTS_KEY -> headers.put("App-Attest-Key-Id", bob.keyId());
            case UNKNOWN_KEY -> headers.put("App-Attest-Key-Id", Codec.toBase64(bytes(random, 32)));
            case MALFORMED_KEY -> headers.put("App-Attest-Key-Id", pick(random, "", "!!!", "a", "A".repeat(4000),
                    "%00", "AAAA====", attempt.keyId() + "x", attempt.keyId().substring(1)));
            case MALFORMED_CHALLENGE -> headers.put("App-Attest-Challenge", pick(random, "", "***", "a",
                    "A".repeat(4000), attempt.challenge() + "A", attempt.challenge().substring(2)));
            case FLIPPED_ASSERTION -> {
                byte[] assertion = Base64.getDecoder().decode(attempt.assertion());
                assertion[random.nextInt(assertion.length)] ^= (byte) (1 << random.nextInt(8));
                headers.put("App-Attest-Assertion", Codec.toBase64(assertion));
            }
            case TRUNCATED_ASSERTION -> {
                byte[] assertion = Base64.getDecoder().decode(attempt.assertion());
                headers.put("App-Attest-Assertion", Codec.toBase64(java.util.Arrays.copyOf(assertion,
                        random.nextInt(assertion.length))));
            }
            case RANDOM_ASSERTION -> headers.put("App-Attest-Assertion",
                    Codec.toBase64(bytes(random, 1 + random.nextInt(400))));
            case MALFORMED_ASSERTION -> headers.put("App-Attest-Assertion", pick(random, "", "not base64!", "====",
                    "A".repeat(6000), "\u00e9t\u00e9"));
            case ASSERTION_FOR_ANOTHER_OPERATION -> headers.put("Idempotency-Key", UUID.randomUUID().toString());
            case TAMPERED_BODY -> wire = attempt.body().replace("19.90", "0.01").getBytes(StandardCharsets.UTF_8);
            case TRUNCATED_JSON -> wire = java.util.Arrays.copyOf(wire, random.nextInt(wire.length));
            case WRONG_CONTENT_TYPE -> {
                String type = pick(random, "text/plain", "application/xml", "application/x-www-form-urlencoded",
                        "multipart/form-data; boundary=x", "application/json-seq", "", "*/*");
                if (type.isEmpty()) {
                    headers.remove("Content-Type");
                } else {
                    headers.put("Content-Type", type);
                }
            }
            case UTF16_BODY -> wire = attempt.body().getBytes(pick(random, StandardCharsets.UTF_16BE,
                    StandardCharsets.UTF_16LE, StandardCharsets.UTF_16));
            case LATIN1_BYTE -> wire = attempt.body().replace("ann@example.com", "Zo\u00eb")
                    .getBytes(StandardCharsets.ISO_8859_1);
            case GZIP_CLAIMED -> headers.put("Content-Encoding", pick(random, "gzip", "deflate", "br"));
            case HUGE_BODY -> wire = attempt.body().replace("ann@example.com",
                    "a".repeat(256 * 1024 + random.nextInt(2 * 1024 * 1024))).getBytes(StandardCharsets.UTF_8);
            case KEY_NOT_A_UUID -> headers.put("Idempotency-Key", pick(random, "abc", "", operationId + "0",
                    operationId.replace("-", ""), "00000000-0000-0000-0000-000000000000"));
            default -> {
            }
        }
        var request = new RawHttp.Request("POST", "/v1/operations");
        headers.forEach(request::header);
        return request.body(wire);
    }

    /**
     * Eve's honest assertion over {@code command}; one the device cannot even parse into a command
     * (a type or arguments of the wrong JSON shape) is sent with the assertion over {@code body}.
     */
    private static AttestedDevice.Attempt signed(String operationId, String body, String command) {
        try {
            return eve.attempt(operationId, command);
        } catch (RuntimeException notACommandTheDeviceCanSign) {
            return eve.attempt(operationId, body).withBody(command);
        }
    }

    private static void assertProblem(Object attack, RawHttp.Response response) {
        assertThat(response.header("Content-Type")).as("%s: the Content-Type of %s", attack, response.text())
                .startsWith("application/problem+json");
        JsonNode problem = JSON.readTree(response.body());
        assertThat(problem.path("type").asString("")).as("%s: a type docs/problems.md lists", attack)
                .isIn(DOCUMENTED);
        assertThat(problem.path("status").asInt()).as("%s: the problem's status", attack).isEqualTo(response.status());
    }

    // ---- /mcp ------------------------------------------------------------------------------------

    enum McpBase { CALL, CALL_AS_TASK, TASK_OF_ANOTHER_SUBJECT, OWN_TASK }

    enum McpMutation {
        NONE, NO_TOKEN, ALG_NONE, WRONG_SIGNATURE, EXPIRED, CONTENT_TYPE, UTF16_BODY, INVALID_UTF8, GZIP_CLAIMED,
        HUGE_BODY, MALFORMED_JSON_RPC, UNKNOWN_METHOD, BAD_PARAMS, INVALID_ARGUMENTS, BAD_PROTOCOL_VERSION,
        ROUTING_MISMATCH, FOREIGN_HOST, FOREIGN_ORIGIN, UNKNOWN_TASK_ID;

        boolean appliesTo(McpBase base) {
            boolean call = base == McpBase.CALL || base == McpBase.CALL_AS_TASK;
            return switch (this) {
                case NONE -> base == McpBase.TASK_OF_ANOTHER_SUBJECT;
                case INVALID_ARGUMENTS -> call;
                case UNKNOWN_TASK_ID -> !call;
                default -> true;
            };
        }

        boolean token() {
            return this == NO_TOKEN || this == ALG_NONE || this == WRONG_SIGNATURE || this == EXPIRED;
        }
    }

    record McpAttack(McpBase base, McpMutation mutation, int variant) {
    }

    @Provide
    Arbitrary<McpAttack> mcpAttacks() {
        return Combinators.combine(Arbitraries.of(McpBase.class), Arbitraries.of(McpMutation.class),
                Arbitraries.integers().between(0, 9999)).as(McpAttack::new)
                .filter(attack -> attack.mutation().appliesTo(attack.base()));
    }

    @Property(shrinking = ShrinkingMode.BOUNDED, maxDiscardRatio = 20)
    void everyHostileMcpRequestIsRefusedWithAJsonRpcErrorAndChangesNothing(@ForAll("mcpAttacks") McpAttack attack)
            throws Exception {
        MCP_TRIES.incrementAndGet();
        var random = new Random(attack.variant());
        RawHttp.Request request = mcpRequest(attack, random);
        String before = fingerprint();
        RawHttp.Response response = http.send(request);
        STATUSES.merge(Integer.toString(response.status()), 1, Integer::sum);
        mcpProgress.step("last: " + attack.base() + " " + attack.mutation() + " → " + response.status());
        String after = fingerprint();
        tally(response.text().contains("\"result\""), response.status(), !after.equals(before));
        try {
            checkMcp(attack, response, before, after);
        } catch (AssertionError e) {
            FAILED_PROPERTIES.updateAndGet(failed -> failed | 2);
            throw e;
        }
    }

    private static void checkMcp(McpAttack attack, RawHttp.Response response, String before, String after) {
        assertThat(response.status()).as("%s answered %s", attack, response.text()).isLessThan(500);
        if (response.status() == 401) {
            // refused before MCP by the API's authentication: its problem, as on /v1
            assertThat(attack.mutation().token()).as("%s: a valid token was refused", attack).isTrue();
            assertProblem(attack, response);
        } else {
            JsonNode message = jsonRpc(response);
            assertThat(message.has("result")).as("%s: a result for a hostile request: %s", attack, message).isFalse();
            assertThat(message.path("error").path("code").isInt()).as("%s: a JSON-RPC error: %s", attack, message)
                    .isTrue();
            assertThat(message.path("error").path("message").asString("")).as("%s", attack).isNotBlank();
        }
        assertThat(after).as("the node's state after %s", attack).isEqualTo(before);
    }

    private static RawHttp.Request mcpRequest(McpAttack attack, Random random) {
        AttestedDevice caller = attack.base() == McpBase.OWN_TASK ? alice : eve;
        String method;
        String name;
        String params;
        switch (attack.base()) {
            case CALL, CALL_AS_TASK -> {
                method = "tools/call";
                name = "checkout";
                String arguments = mcpArguments(UUID.randomUUID().toString(), "8.20");
                if (attack.mutation() == McpMutation.INVALID_ARGUMENTS) {
                    arguments = pick(random, mcpArguments("not-a-uuid", "8.20"), mcpArguments(UUID.randomUUID()
                            .toString(), "-1"), "{}", "[1]", "\"x\"", mcpArguments(UUID.randomUUID().toString(), "8.20")
                            .replace("\"quantity\":1", "\"quantity\":\"many\""));
                }
                params = "{\"name\":\"checkout\",\"arguments\":" + arguments + ","
                        + meta(attack.base() == McpBase.CALL_AS_TASK) + "}";
            }
            default -> {
                method = attack.base() == McpBase.OWN_TASK ? "tasks/get"
                        : pick(random, "tasks/get", "tasks/cancel", "tasks/update");
                name = ALICE_TASKS.get(random.nextInt(ALICE_TASKS.size()));
                if (attack.mutation() == McpMutation.UNKNOWN_TASK_ID) {
                    name = pick(random, "tasks-nonexistent", "x".repeat(300), "' OR 1=1 --", UUID.randomUUID()
                            .toString(), name + "x", name.toUpperCase(java.util.Locale.ROOT));
                }
                params = "{\"taskId\":\"" + name + "\"," + meta(true) + "}";
            }
        }
        String token = caller.token;
        String authorization = attack.mutation().token()
                ? forgedAuthorization(RestMutation.valueOf(attack.mutation().name()), caller.subject, random)
                : "Bearer " + token;
        String protocolHeader = MCP_VERSION;
        String host = null;
        String origin = null;
        String contentType = "application/json";
        String contentEncoding = null;
        switch (attack.mutation()) {
            case UNKNOWN_METHOD -> method = pick(random, "tools/delete", "tasks/list", "tasks/result",
                    "resources/read", "sampling/createMessage", "rpc.discover", "", "TOOLS/CALL");
            case BAD_PARAMS -> params = pick(random, "\"x\"", "[]", "7", "null", "{}",
                    "{\"name\":7,\"arguments\":{}," + meta(false) + "}", "{\"taskId\":7," + meta(true) + "}");
            case BAD_PROTOCOL_VERSION -> {
                String version = pick(random, "1999-01-01", "", "2026-07-28 ", "latest");
                params = params.replace(MCP_VERSION, version);
                protocolHeader = random.nextBoolean() ? version : MCP_VERSION;
            }
            case FOREIGN_HOST -> host = pick(random, "evil.example", "evil.example:80", "localhost.evil.example");
            case FOREIGN_ORIGIN -> origin = pick(random, "http://evil.example", "null", "https://localhost.evil.example");
            case CONTENT_TYPE -> contentType = pick(random, "text/plain", "application/x-www-form-urlencoded",
                    "multipart/form-data; boundary=x", "application/xml", "", "text/event-stream", "application/jsonx");
            case GZIP_CLAIMED -> contentEncoding = pick(random, "gzip", "deflate", "br");
            default -> {
            }
        }
        String routingMethod = method;
        String routingName = name;
        if (attack.mutation() == McpMutation.ROUTING_MISMATCH) {
            switch (random.nextInt(3)) {
                case 0 -> routingMethod = "tools/call".equals(method) ? "tasks/get" : "tools/call";
                case 1 -> routingMethod = null;
                default -> routingName = name + "x";
            }
        }
        String text = "{\"jsonrpc\":\"2.0\",\"id\":" + (1 + random.nextInt(1000)) + ",\"method\":\"" + method
                + "\",\"params\":" + params + "}";
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        switch (attack.mutation()) {
            case UTF16_BODY -> body = text.getBytes(pick(random, StandardCharsets.UTF_16BE, StandardCharsets.UTF_16LE,
                    StandardCharsets.UTF_16));
            case INVALID_UTF8 -> {
                // a byte sequence no UTF-8 decoder accepts, inside a string of the message
                byte[] bad = pick(random, new byte[] {(byte) 0xc3, 0x28}, new byte[] {(byte) 0xed, (byte) 0xa0,
                        (byte) 0x80}, new byte[] {(byte) 0xff}, new byte[] {(byte) 0xc0, (byte) 0xaf},
                        new byte[] {(byte) 0xf8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80});
                int at = text.indexOf("hostile-agent") + 7;
                var out = new ByteArrayOutputStream();
                out.write(body, 0, at);
                out.writeBytes(bad);
                out.write(body, at, body.length - at);
                body = out.toByteArray();
            }
            case HUGE_BODY -> body = text.replace("hostile-agent", "a".repeat(65 * 1024 + random.nextInt(2 * 1024 * 1024)))
                    .getBytes(StandardCharsets.UTF_8);
            case MALFORMED_JSON_RPC -> body = pick(random, text.substring(0, random.nextInt(text.length())),
                    "[" + text + "]", "42", "null", "\"tools/call\"", text.replace("\"2.0\"", "\"1.0\""),
                    text.replace("\"jsonrpc\":\"2.0\",", ""), text + "}", "{}", "\u0000" + text, "")
                    .getBytes(StandardCharsets.UTF_8);
            default -> {
            }
        }
        var request = new RawHttp.Request("POST", "/mcp");
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        if (!contentType.isEmpty()) {
            request.header("Content-Type", contentType);
        }
        if (contentEncoding != null) {
            request.header("Content-Encoding", contentEncoding);
        }
        request.header("Accept", "application/json, text/event-stream");
        request.header("MCP-Protocol-Version", protocolHeader);
        if (routingMethod != null) {
            request.header("Mcp-Method", routingMethod);
        }
        if (routingName != null) {
            request.header("Mcp-Name", routingName);
        }
        if (origin != null) {
            request.header("Origin", origin);
        }
        if (host != null) {
            request.host(host);
        }
        return request.body(body);
    }

    private static RawHttp.Request mcp(String token, String method, String name, String params) {
        return new RawHttp.Request("POST", "/mcp").header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", MCP_VERSION).header("Mcp-Method", method).header("Mcp-Name", name)
                .body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}");
    }

    private static String meta(boolean tasks) {
        return "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"" + MCP_VERSION + "\""
                + ",\"io.modelcontextprotocol/clientInfo\":{\"name\":\"hostile-agent\",\"version\":\"1\"}"
                + ",\"io.modelcontextprotocol/clientCapabilities\":"
                + (tasks ? "{\"extensions\":{\"" + TASKS + "\":{}}}" : "{}") + "}";
    }

    /** The JSON-RPC message of an MCP response: its JSON body, or the first {@code data:} of an event stream. */
    private static JsonNode jsonRpc(RawHttp.Response response) {
        String contentType = Objects.requireNonNullElse(response.header("Content-Type"), "");
        String text = response.text();
        if (contentType.startsWith("text/event-stream")) {
            text = text.lines().filter(line -> line.startsWith("data:")).map(line -> line.substring(5).strip())
                    .findFirst().orElse("");
        } else {
            assertThat(contentType).as("the Content-Type of %d %s", response.status(), text)
                    .startsWith("application/json");
        }
        JsonNode message = JSON.readTree(text);
        assertThat(message.path("jsonrpc").asString("")).as("a JSON-RPC message: %s", text).isEqualTo("2.0");
        return message;
    }

    // ---- shared ----------------------------------------------------------------------------------

    /** An Authorization value for a token mutation, or null for none. */
    private static String forgedAuthorization(RestMutation mutation, String subject, Random random) {
        long now = Instant.now().getEpochSecond();
        String claims = "{\"sub\":\"" + subject + "\",\"iat\":" + (now - 60) + ",\"exp\":" + (now + 3600) + "}";
        return switch (mutation) {
            case NO_TOKEN -> null;
            case ALG_NONE -> "Bearer " + base64Url(pick(random, "{\"alg\":\"none\",\"typ\":\"JWT\"}", "{\"alg\":\"none\"}",
                    "{\"alg\":\"None\"}", "{\"alg\":\"NONE\",\"typ\":\"JWT\"}")) + "." + base64Url(claims) + "."
                    + pick(random, "", TestTokens.signRaw(TestTokens.LOCAL_SECRET, claims.getBytes(StandardCharsets.UTF_8))
                            .split("\\.")[2]);
            case WRONG_SIGNATURE -> "Bearer " + TestTokens.signRaw(pick(random,
                    "another-secret-another-secret-another-secret-0000", TestTokens.TEST_SECRET,
                    TestTokens.LOCAL_SECRET + "x"), claims.getBytes(StandardCharsets.UTF_8));
            case EXPIRED -> "Bearer " + TestTokens.signRaw(TestTokens.LOCAL_SECRET, ("{\"sub\":\"" + subject
                    + "\",\"iat\":" + (now - 7200) + ",\"exp\":" + (now - pick(random, 3600, 600, 120)) + "}")
                    .getBytes(StandardCharsets.UTF_8));
            case GARBAGE_TOKEN -> "Bearer " + pick(random, "not.a.jwt", "a.b", "a.b.c.d", "...", "", "\u00e9.\u00e9.\u00e9",
                    "x".repeat(5000));
            case OTHER_SCHEME -> pick(random, "Basic c3VwcG9ydDpzdXBwb3J0", "Basic YWRtaW46YWRtaW4=", "Token abc",
                    "Digest username=\"admin\"");
            default -> throw new IllegalArgumentException(mutation.name());
        };
    }

    /**
     * The node's state in one string: every table's row count (but the challenges the test asks
     * for), the operations, MCP tasks and App Attest keys row by row, the tool server's effects.
     */
    private static String fingerprint() throws SQLException {
        try (Connection db = E2eDatabase.connect(database)) {
            List<Object> tables = E2eQueries.list(db, "SELECT table_name FROM information_schema.tables "
                    + "WHERE table_schema = 'public' AND table_type = 'BASE TABLE' "
                    + "AND table_name NOT LIKE 'databasechangelog%' AND table_name <> 'attest_challenge' "
                    + "ORDER BY table_name");
            String counts = tables.stream().map(table -> "SELECT '" + table + "=' || count(*) FROM public.\"" + table
                    + "\"").collect(Collectors.joining(" UNION ALL "));
            String rows = " UNION ALL SELECT 'operation ' || md5(coalesce(string_agg(o::text, '|' ORDER BY o.id), '')) "
                    + "FROM public.operation o UNION ALL SELECT 'mcp_task ' || md5(coalesce(string_agg(t::text, '|' "
                    + "ORDER BY t::text), '')) FROM public.mcp_task t UNION ALL SELECT 'attest_key ' || "
                    + "md5(coalesce(string_agg(k::text, '|' ORDER BY k::text), '')) FROM public.attest_key k "
                    + "UNION ALL SELECT 'effects=' || count(*) FROM reference_tools.effect_log";
            return E2eQueries.list(db, counts + rows).stream().map(String::valueOf).collect(Collectors.joining(", "));
        }
    }

    static String body(int quantity, String amount) {
        return "{\"type\":\"checkout\",\"arguments\":" + arguments(quantity, amount) + "}";
    }

    private static String arguments(int quantity, String amount) {
        return "{\"sku\":\"SKU-ESPRESSO\",\"quantity\":" + quantity + ",\"amount\":" + amount
                + ",\"currency\":\"EUR\",\"recipient\":\"ann@example.com\"}";
    }

    private static String mcpArguments(String operationId, String amount) {
        return "{\"operationId\":\"" + operationId + "\",\"sku\":\"SKU-ESPRESSO\",\"quantity\":1,\"amount\":" + amount
                + ",\"currency\":\"EUR\",\"recipient\":\"ann@example.com\"}";
    }

    private static String base64Url(String text) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] bytes(Random random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    @SafeVarargs
    private static <T> T pick(Random random, T... values) {
        return values[random.nextInt(values.length)];
    }
}
