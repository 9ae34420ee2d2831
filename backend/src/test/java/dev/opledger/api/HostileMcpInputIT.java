package dev.opledger.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.testing.DocumentedProblems;
import dev.opledger.testing.LedgerTables;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.RawHttp;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Generated hostile requests at the MCP server ({@code /mcp}), over a socket one after another,
 * as {@link HostileInputIT} does for {@code /v1}: a valid {@code tools/call} (with or without the
 * tasks extension), a replay of one, {@code tools/list} or the caller's own {@code tasks/get},
 * each sent as it is or with one hostile change — malformed JSON-RPC, wrong types, a body over
 * the limit, a missing, forged, expired or {@code alg: none} token, another subject's task id, an
 * unknown method, a bad protocol version, a mismatched routing header, a foreign Host or Origin.
 * None gets a 5xx; every refusal is a JSON-RPC error (a 401 is the API's documented problem,
 * since it comes before MCP); only a valid request gets a result; a refused one changes no table.
 *
 * <p>Each run draws a new seed and prints it; {@code -Dopledger.hostile.seed=<seed>} repeats it,
 * {@code -Dopledger.hostile.mcp-requests=<n>} sets how many (default 600).
 */
@NodeIntegrationTest
class HostileMcpInputIT {

    /** The extension's methods on one task: for a task the caller does not have, each is "not found". */
    private static final String[] TASK_METHODS = {"tasks/get", "tasks/cancel", "tasks/update"};

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String VERSION = "2026-07-28";
    private static final String TASKS = "io.modelcontextprotocol/tasks";
    private static final int SHOWN_FAILURES = 40;
    /** Tables a new operation writes (the claim's statement), and its task when the call declared tasks. */
    private static final Set<String> CREATE_WRITES = Set.of("operation", "operation_attempt", "operation_transition",
            "outbox_event", "mcp_task");

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    /** What the node owes a request, known from how it was made. */
    sealed interface Expect {
    }

    record Creates(String subject, UUID operationId, boolean tasks) implements Expect {
    }

    record Replays() implements Expect {
    }

    record Reads() implements Expect {
    }

    /** A JSON-RPC error (or, with {@code status}, that HTTP status), and nothing changes. */
    record Refused(int status) implements Expect {
    }

    record Call(String subject, UUID operationId, String arguments, boolean tasks) {
    }

    /** One request being made: its JSON-RPC parts and headers, changed in place by a mutation. */
    static final class Spec {
        String subject;
        String token;
        String method = "tools/call";
        Object id = 1;
        String params;
        String routingMethod;
        String routingName;
        String protocolHeader = VERSION;
        String host;
        String origin;
        byte[] rawBody;
        Expect expect;
        String description;

        String body() {
            return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}";
        }
    }

    record Mutation(String category, BiFunction<Spec, Random, String> apply) {
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void noHostileMcpRequestGetsA5xxOrAnUnclearAnswerOrChangesTheLedger() {
        long seed = Long.getLong("opledger.hostile.seed", new SecureRandom().nextLong());
        int count = Integer.getInteger("opledger.hostile.mcp-requests", 600);
        System.out.printf("HostileMcpInputIT: seed %d (-Dopledger.hostile.seed=%d to repeat), %d requests%n", seed, seed,
                count);
        var random = new Random(seed);
        String run = Long.toHexString(seed);
        List<String> subjects = List.of("hostile-mcp-" + run + "-ann", "hostile-mcp-" + run + "-bob");
        List<Call> calls = new ArrayList<>();
        Map<String, String> taskOwners = new LinkedHashMap<>();
        var documented = DocumentedProblems.types();
        var tables = new LedgerTables(jdbc);
        var http = new RawHttp(port);
        List<String> failures = new ArrayList<>();
        Map<String, Integer> outcomes = new TreeMap<>();
        Map<String, Long> before = tables.counts();
        for (int index = 0; index < count; index++) {
            Spec spec = base(random, subjects, calls, taskOwners);
            if (random.nextDouble() < 0.7) {
                Mutation mutation = MUTATIONS.get(random.nextInt(MUTATIONS.size()));
                spec.description += " with " + mutation.category() + " " + mutation.apply().apply(spec, random);
                if (!(spec.expect instanceof Refused)) {
                    spec.expect = new Refused(0);
                }
            }
            List<String> wrong = new ArrayList<>();
            String answered = "nothing";
            try {
                RawHttp.Response response = http.send(request(spec));
                Map<String, Long> after = tables.counts();
                answered = response.status() + " " + abbreviated(response.text());
                JsonNode result = check(spec, response, before, after, documented, wrong);
                outcomes.merge(spec.expect.getClass().getSimpleName() + " → " + response.status(), 1, Integer::sum);
                if (wrong.isEmpty()) {
                    remember(spec, result, calls, taskOwners);
                }
                before = after;
            } catch (UncheckedIOException e) {
                wrong.add("no complete response: " + e.getMessage());
                before = tables.counts();
            }
            if (!wrong.isEmpty()) {
                failures.add("#" + index + " " + spec.description + ": " + String.join("; ", wrong) + " (answered "
                        + answered + ")");
            }
        }
        failures.forEach(failure -> System.out.println("HostileMcpInputIT: " + failure));
        System.out.printf("HostileMcpInputIT: %d requests, %d calls accepted, %d tasks; expected → status: %s%n", count,
                calls.size(), taskOwners.size(), outcomes);

        assertThat(failures)
                .as("seed %d: %d of %d requests answered wrongly; the first:%n%s", seed, failures.size(), count,
                        String.join("\n", failures.subList(0, Math.min(SHOWN_FAILURES, failures.size()))))
                .isEmpty();
        assertThat(calls).as("some valid calls were generated and accepted").isNotEmpty();
    }

    /** A valid request: a new call, a replay, tools/list or the caller's own tasks/get. */
    private static Spec base(Random random, List<String> subjects, List<Call> calls, Map<String, String> taskOwners) {
        var spec = new Spec();
        double base = random.nextDouble();
        if (base < 0.5 || calls.isEmpty()) {
            boolean tasks = random.nextBoolean();
            actAs(spec, subjects.get(random.nextInt(subjects.size())));
            UUID operationId = UUID.randomUUID();
            String arguments = arguments(random, operationId);
            call(spec, "checkout", arguments, tasks);
            spec.expect = new Creates(spec.subject, operationId, tasks);
            spec.description = "tools/call checkout " + operationId + (tasks ? " (tasks)" : "") + " as " + spec.subject;
        } else if (base < 0.65) {
            Call earlier = calls.get(random.nextInt(calls.size()));
            actAs(spec, earlier.subject());
            call(spec, "checkout", earlier.arguments(), earlier.tasks());
            spec.expect = new Replays();
            spec.description = "replayed tools/call " + earlier.operationId() + " as " + spec.subject;
        } else if (base < 0.8 || taskOwners.isEmpty()) {
            actAs(spec, subjects.get(random.nextInt(subjects.size())));
            spec.method = "tools/list";
            spec.routingMethod = spec.method;
            spec.params = "{" + meta(false) + "}";
            spec.expect = new Reads();
            spec.description = "tools/list as " + spec.subject;
        } else {
            var tasks = new ArrayList<>(taskOwners.entrySet());
            var task = tasks.get(random.nextInt(tasks.size()));
            boolean owner = random.nextInt(3) > 0;
            // another subject's task id is "not found", as if it did not exist
            actAs(spec, owner ? task.getValue()
                    : subjects.stream().filter(other -> !other.equals(task.getValue())).findFirst().orElseThrow());
            // the owner reads it; another subject reads, cancels or updates it, and is told "not found"
            taskRequest(spec, owner ? "tasks/get" : pick(random, TASK_METHODS), task.getKey());
            spec.expect = owner ? new Reads() : new Refused(0);
            spec.description = spec.method + " " + task.getKey() + " as " + (owner ? "its owner " : "another subject ")
                    + spec.subject;
        }
        return spec;
    }

    private static void actAs(Spec spec, String subject) {
        spec.subject = subject;
        spec.token = "Bearer " + ForgedTokens.valid(subject);
    }

    private static void call(Spec spec, String tool, String arguments, boolean tasks) {
        spec.method = "tools/call";
        spec.routingMethod = spec.method;
        spec.routingName = tool;
        spec.params = "{\"name\":\"" + tool + "\",\"arguments\":" + arguments + "," + meta(tasks) + "}";
    }

    private static void taskRequest(Spec spec, String method, String taskId) {
        spec.method = method;
        spec.routingMethod = spec.method;
        spec.routingName = taskId;
        spec.params = "{\"taskId\":\"" + taskId + "\"," + meta(true) + "}";
    }

    private static String meta(boolean tasks) {
        return meta("\"" + VERSION + "\"", tasks);
    }

    private static String meta(String version, boolean tasks) {
        return "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":" + version
                + ",\"io.modelcontextprotocol/clientInfo\":{\"name\":\"hostile-agent\",\"version\":\"1\"}"
                + ",\"io.modelcontextprotocol/clientCapabilities\":"
                + (tasks ? "{\"extensions\":{\"" + TASKS + "\":{}}}" : "{}") + "}";
    }

    private static String arguments(Random random, UUID operationId) {
        var text = new StringBuilder("{\"operationId\":\"").append(operationId).append('"');
        HostileMutations.validArguments(random).forEach((name, value) -> text.append(",\"").append(name).append("\":")
                .append(value));
        return text.append('}').toString();
    }

    private static final List<Mutation> MUTATIONS = List.of(
            // tokens: refused before MCP with the API's 401 problem
            new Mutation("token", (spec, random) -> {
                String now = ForgedTokens.lifetime(-60, 3600);
                String[] tokens = {null, "Bearer ", "Bearer not.a.jwt", "Basic dXNlcjpwYXNz",
                        "Bearer " + ForgedTokens.unsigned("{\"sub\":\"" + spec.subject + "\"," + now + "}"),
                        "Bearer " + ForgedTokens.signed("another-secret-0123456789abcdef-0123456789abcdef",
                                "{\"sub\":\"" + spec.subject + "\"," + now + "}"),
                        "Bearer " + ForgedTokens.signed(dev.opledger.testing.TestTokens.TEST_SECRET,
                                "{\"sub\":\"" + spec.subject + "\"," + ForgedTokens.lifetime(-7200, -3600) + "}"),
                        "Bearer " + ForgedTokens.signed(dev.opledger.testing.TestTokens.TEST_SECRET,
                                "{\"sub\":42," + now + "}")};
                int pick = random.nextInt(tokens.length);
                spec.token = tokens[pick];
                spec.expect = new Refused(401);
                return List.of("none", "empty", "garbage", "basic", "alg none", "wrong signature", "expired",
                        "numeric sub").get(pick);
            }),
            new Mutation("host", (spec, random) -> {
                spec.host = pick(random, "evil.example", "evil.example:80", "localhost.evil.example", "127.0.0.2:1");
                spec.expect = new Refused(421);
                return spec.host;
            }),
            new Mutation("origin", (spec, random) -> {
                spec.origin = pick(random, "http://evil.example", "null", "https://localhost.evil.example");
                spec.expect = new Refused(403);
                return spec.origin;
            }),
            new Mutation("json", (spec, random) -> {
                String body = spec.body();
                String[] bodies = {body.substring(0, random.nextInt(body.length())), "[" + body + "]", "42", "null",
                        "\"tools/call\"", body.replace("\"2.0\"", "\"1.0\""), body.replace("\"jsonrpc\":\"2.0\",", ""),
                        body.replace("\"method\":\"" + spec.method + "\"", "\"method\":7"), body + "}", "{}",
                        "\u0000" + body, body.replace("\"id\":1", "\"id\":{\"a\":1}")};
                int pick = random.nextInt(bodies.length);
                spec.rawBody = bodies[pick].getBytes(StandardCharsets.UTF_8);
                return "variant " + pick;
            }),
            new Mutation("params", (spec, random) -> {
                // tools/list takes any params with _meta: only the first five refuse it
                String[] params = {"\"x\"", "[]", "7", "null", "{}",
                        "{\"name\":7,\"arguments\":{}," + meta(false) + "}",
                        "{\"name\":\"checkout\",\"arguments\":[1]," + meta(false) + "}",
                        "{\"name\":\"checkout\",\"arguments\":\"x\"," + meta(false) + "}",
                        "{\"name\":\"no_such_tool\",\"arguments\":{}," + meta(true) + "}",
                        "{\"taskId\":7," + meta(true) + "}"};
                int pick = random.nextInt("tools/list".equals(spec.method) ? 5 : params.length);
                spec.params = params[pick];
                return "variant " + pick;
            }),
            new Mutation("arguments", (spec, random) -> {
                UUID operationId = UUID.randomUUID();
                String valid = arguments(random, operationId);
                String[] arguments = {valid.replace("\"operationId\":\"" + operationId + "\",", ""),
                        valid.replace("\"" + operationId + "\"", "7"),
                        valid.replace("\"" + operationId + "\"", "\"" + operationId.toString().substring(1) + "\""),
                        valid.replace("\"" + operationId + "\"", "\"" + operationId.toString().toUpperCase() + "x\""),
                        valid.replaceFirst("\"quantity\":\\d+", "\"quantity\":\"many\""),
                        valid.replaceFirst("\"quantity\":\\d+", "\"quantity\":-1"),
                        valid.replaceFirst("\"quantity\":\\d+", "\"quantity\":1e30"),
                        valid.replaceFirst("\"sku\":\"[^\"]*\"", "\"sku\":\"a\\u0000b\""),
                        valid.replaceFirst("\"sku\":\"[^\"]*\"", "\"sku\":null"),
                        valid.replace("}", ",\"unexpected\":true}")};
                int pick = random.nextInt(arguments.length);
                call(spec, "checkout", arguments[pick], random.nextBoolean());
                return "variant " + pick;
            }),
            new Mutation("encoding", (spec, random) -> {
                // not UTF-8: a byte sequence no decoder accepts, inside a string (the transport alone would decode
                // it with replacement characters and run the call), or the message in UTF-16
                byte[] text = spec.body().getBytes(StandardCharsets.UTF_8);
                int pick = random.nextInt(5);
                if (pick == 4) {
                    spec.rawBody = spec.body().getBytes(StandardCharsets.UTF_16LE);
                    return "UTF-16LE";
                }
                byte[] bad = List.of(new byte[] {(byte) 0xc3, 0x28}, new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
                        new byte[] {(byte) 0xff}, new byte[] {(byte) 0xc0, (byte) 0xaf}).get(pick);
                int at = spec.body().indexOf("hostile-agent") + 7;
                var out = new java.io.ByteArrayOutputStream();
                out.write(text, 0, at);
                out.writeBytes(bad);
                out.write(text, at, text.length - at);
                spec.rawBody = out.toByteArray();
                spec.expect = new Refused(400);
                return java.util.HexFormat.of().formatHex(bad);
            }),
            new Mutation("size", (spec, random) -> {
                int size = 65 * 1024 + random.nextInt(2 * 1024 * 1024);
                call(spec, "checkout", "{\"padding\":\"" + "a".repeat(size) + "\"}", false);
                spec.expect = new Refused(413);
                return size + " bytes";
            }),
            new Mutation("method", (spec, random) -> {
                spec.method = pick(random, "tools/delete", "tasks/list", "tasks/result", "resources/read",
                        "prompts/get", "sampling/createMessage", "rpc.discover", "", "TOOLS/LIST");
                spec.routingMethod = spec.method;
                spec.params = "{" + meta(true) + "}";
                return "\"" + spec.method + "\"";
            }),
            new Mutation("protocol version", (spec, random) -> {
                String version = pick(random, "\"2025-11-25\"", "\"1999-01-01\"", "42", "null", "\"\"",
                        "\"2026-07-28 \"");
                spec.params = spec.params.replace("\"io.modelcontextprotocol/protocolVersion\":\"" + VERSION + "\"",
                        "\"io.modelcontextprotocol/protocolVersion\":" + version);
                if (random.nextBoolean()) {
                    spec.protocolHeader = version.replace("\"", "");
                }
                return version + (spec.protocolHeader.equals(VERSION) ? "" : " (header too)");
            }),
            new Mutation("routing header", (spec, random) -> {
                int pick = random.nextInt(4);
                switch (pick) {
                    case 0 -> spec.routingMethod = "tools/list".equals(spec.method) ? "tools/call" : "tools/list";
                    case 1 -> spec.routingMethod = null;
                    case 2 -> spec.protocolHeader = null;
                    default -> spec.routingName = spec.routingName == null ? "checkout" : spec.routingName + "x";
                }
                if (pick == 3 && "tools/list".equals(spec.method)) {
                    // Mcp-Name on a method without a name: not a mismatch, so make the body's name disagree instead
                    call(spec, "checkout", arguments(random, UUID.randomUUID()), false);
                    spec.routingName = "note";
                }
                return List.of("wrong Mcp-Method", "no Mcp-Method", "no MCP-Protocol-Version", "wrong Mcp-Name")
                        .get(pick);
            }),
            new Mutation("task id", (spec, random) -> {
                // a task of nobody (the base may be any request: make it a tasks/get, /cancel or /update)
                String taskId = pick(random, "tasks-nonexistent", "", "x".repeat(300), "' OR 1=1 --",
                        UUID.randomUUID().toString());
                taskRequest(spec, pick(random, TASK_METHODS), taskId);
                return spec.method + " \"" + abbreviated(taskId) + "\"";
            }));

    private static String pick(Random random, String... values) {
        return values[random.nextInt(values.length)];
    }

    private static RawHttp.Request request(Spec spec) {
        var request = new RawHttp.Request("POST", "/mcp");
        if (spec.token != null) {
            request.header("Authorization", spec.token);
        }
        request.header("Content-Type", "application/json");
        request.header("Accept", "application/json, text/event-stream");
        if (spec.protocolHeader != null) {
            request.header("MCP-Protocol-Version", spec.protocolHeader);
        }
        if (spec.routingMethod != null) {
            request.header("Mcp-Method", spec.routingMethod);
        }
        if (spec.routingName != null) {
            request.header("Mcp-Name", spec.routingName);
        }
        if (spec.origin != null) {
            request.header("Origin", spec.origin);
        }
        if (spec.host != null) {
            request.host(spec.host);
        }
        return request.body(spec.rawBody != null ? spec.rawBody : spec.body().getBytes(StandardCharsets.UTF_8));
    }

    private JsonNode check(Spec spec, RawHttp.Response response, Map<String, Long> before, Map<String, Long> after,
            Set<String> documented, List<String> wrong) {
        int status = response.status();
        if (status >= 500) {
            wrong.add("status " + status);
        }
        Set<String> changed = after.keySet().stream().filter(table -> !Objects.equals(before.get(table), after.get(table)))
                .collect(Collectors.toSet());
        boolean tokenRefused = spec.expect instanceof Refused(int expected) && expected == 401;
        if (status == 401 || (tokenRefused && status == 400)) {
            // refused before MCP by the API's authentication: its problem, as on /v1
            HostileInputIT.checkProblem(response, documented, wrong);
            if (!tokenRefused) {
                wrong.add("a request with a valid token got " + status);
            }
            if (!changed.isEmpty()) {
                wrong.add("tables changed: " + changed);
            }
            return null;
        }
        JsonNode message = jsonRpc(response, wrong);
        if (message == null) {
            return null;
        }
        JsonNode result = message.get("result");
        JsonNode error = message.get("error");
        if (error != null && (!error.path("code").isInt() || error.path("message").asString("").isBlank())) {
            wrong.add("the error has no integer code or no message: " + error);
        }
        switch (spec.expect) {
            case Creates creates -> {
                if (result == null || status != 200) {
                    wrong.add("a valid call was refused");
                    break;
                }
                Long rows = jdbc.queryForObject(
                        "SELECT count(*) FROM operation WHERE subject_id = ? AND operation_id = ?", Long.class,
                        creates.subject(), creates.operationId());
                if (!Objects.equals(rows, 1L)) {
                    wrong.add(rows + " operation rows for it");
                }
                long tasks = after.get("mcp_task") - before.get("mcp_task");
                if (!CREATE_WRITES.containsAll(changed) || after.get("operation") - before.get("operation") != 1
                        || tasks != (creates.tasks() ? 1 : 0)) {
                    wrong.add("tables changed: " + changed + ", tasks +" + tasks);
                }
                if (creates.tasks() != "task".equals(result.path("resultType").asString(""))) {
                    wrong.add("resultType " + result.path("resultType"));
                }
            }
            case Replays replays -> {
                if (result == null || status != 200) {
                    wrong.add("a replay was refused");
                } else if (!Set.of("operation_attempt").containsAll(changed)) {
                    wrong.add("tables changed: " + changed);
                }
            }
            case Reads reads -> {
                if (result == null || status != 200) {
                    wrong.add("a read was refused");
                } else if (!changed.isEmpty()) {
                    wrong.add("tables changed: " + changed);
                }
            }
            case Refused refused -> {
                if (error == null || result != null) {
                    wrong.add("a hostile request was not refused with a JSON-RPC error");
                }
                if (refused.status() != 0 && refused.status() != status) {
                    wrong.add("status " + status + ", expected " + refused.status());
                }
                if (!changed.isEmpty()) {
                    wrong.add("tables changed: " + changed);
                }
            }
        }
        return result;
    }

    private static void remember(Spec spec, JsonNode result, List<Call> calls, Map<String, String> taskOwners) {
        if (spec.expect instanceof Creates creates) {
            String arguments = JSON.readTree(spec.body()).path("params").path("arguments").toString();
            calls.add(new Call(creates.subject(), creates.operationId(), arguments, creates.tasks()));
            if (result.hasNonNull("taskId")) {
                taskOwners.put(result.get("taskId").asString(), creates.subject());
            }
        }
    }

    /** The JSON-RPC message of the response: its JSON body, or the first {@code data:} of an event stream. */
    private static JsonNode jsonRpc(RawHttp.Response response, List<String> wrong) {
        String contentType = Objects.requireNonNullElse(response.header("Content-Type"), "");
        String text = response.text();
        if (contentType.startsWith("text/event-stream")) {
            text = text.lines().filter(line -> line.startsWith("data:")).map(line -> line.substring(5).strip())
                    .findFirst().orElse("");
        } else if (!contentType.startsWith("application/json")) {
            wrong.add("Content-Type " + contentType);
            return null;
        }
        try {
            JsonNode message = JSON.readTree(text);
            if (!"2.0".equals(message.path("jsonrpc").asString("")) || message.has("result") == message.has("error")) {
                wrong.add("not a JSON-RPC response");
                return null;
            }
            return message;
        } catch (RuntimeException e) {
            wrong.add("the body is not JSON");
            return null;
        }
    }

    private static String abbreviated(String text) {
        String line = text.replace('\n', ' ');
        return line.length() > 160 ? line.substring(0, 160) + "…" : line;
    }
}
