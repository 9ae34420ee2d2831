package dev.opledger.cli.load;

import io.modelcontextprotocol.modern.JsonRpc;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import io.modelcontextprotocol.modern.client.transport.McpHttpRequestCustomizer;
import io.modelcontextprotocol.modern.client.transport.McpTransportRequest;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * {@code clients} virtual threads, each an agent with its own bearer token, sending task-augmented
 * {@code tools/call}s of the {@code checkout} tool to the node's {@code /mcp} (revision 2026-07-28,
 * the tasks extension declared in the request's {@code _meta}) in a closed loop, and counting each
 * CreateTaskResult ({@code resultType: "task"} with a {@code taskId}). Fresh: a new operationId per
 * call, so every call creates an operation and its task. Duplicates: each agent first creates
 * {@value #DUPLICATE_KEYS} tasks, then repeats calls for them at random and expects the same
 * taskId back (the lost-CreateTaskResult retry). Anything else is unexpected.
 *
 * <p>The requests go through the MCP Java SDK's own modern client transport
 * ({@link HttpClientMcpTransport}, one POST per request, the {@code Mcp-Method}/{@code Mcp-Name}
 * and {@code MCP-Protocol-Version} headers it sets), as the node's own outbound client does: the
 * SDK's client object does not know the extension (it refuses {@code resultType: "task"}), its
 * transport sends any JSON-RPC request.
 */
public final class McpTaskLoad {

    static final String TASKS = "io.modelcontextprotocol/tasks";
    static final int DUPLICATE_KEYS = 20;
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final boolean duplicates;
    private final List<Agent> agents = new ArrayList<>();

    private record Agent(HttpClientMcpTransport transport, AtomicLong ids, List<String> operationIds,
            List<String> taskIds) {
    }

    /** The outcome of one call: the taskId of its CreateTaskResult, or why there is none. */
    sealed interface Answer {
        record Task(String taskId) implements Answer {
        }

        record Other(String what) implements Answer {
        }
    }

    /** Makes one transport per agent; with {@code duplicates}, each agent's tasks to repeat. */
    public McpTaskLoad(URI server, int clientCount, boolean duplicates, Function<String, String> tokenFor) {
        this.duplicates = duplicates;
        URI endpoint = server.resolve("/mcp");
        for (int i = 0; i < clientCount; i++) {
            String token = tokenFor.apply("mcp-load-" + i + "-" + System.nanoTime());
            var transport = HttpClientMcpTransport.builder(endpoint)
                    .connectTimeout(TIMEOUT)
                    .requestCustomizer(McpHttpRequestCustomizer.fromSync(
                            (request, headers, context) -> headers.set("Authorization", "Bearer " + token)))
                    .build();
            var agent = new Agent(transport, new AtomicLong(), new ArrayList<>(), new ArrayList<>());
            if (duplicates) {
                for (int k = 0; k < DUPLICATE_KEYS; k++) {
                    String operationId = UUID.randomUUID().toString();
                    if (!(call(agent, operationId) instanceof Answer.Task(String taskId))) {
                        throw new IllegalStateException("creating the tasks to repeat failed: "
                                + call(agent, operationId));
                    }
                    agent.operationIds().add(operationId);
                    agent.taskIds().add(taskId);
                }
            }
            agents.add(agent);
        }
    }

    /** Warms up, runs {@code afterWarmUp}, then measures; {@code claims} in the result are CreateTaskResults. */
    public LoadResult run(Duration warmUp, Runnable afterWarmUp, Duration measured) throws Exception {
        phase(warmUp);
        afterWarmUp.run();
        long start = System.nanoTime();
        List<Tally> tallies = phase(measured);
        return Tally.sum(tallies, (System.nanoTime() - start) / 1e9);
    }

    private List<Tally> phase(Duration length) throws Exception {
        return LoadPhase.run(length, agents.stream()
                .map(agent -> (LoadPhase.Loop<Tally>) stop -> loop(agent, stop))
                .toList());
    }

    private Tally loop(Agent agent, AtomicBoolean stop) {
        long tasks = 0;
        long requests = 0;
        long unexpected = 0;
        var latencies = new long[1 << 16];
        int recorded = 0;
        while (!stop.get()) {
            String operationId;
            String expected;
            if (duplicates) {
                int k = ThreadLocalRandom.current().nextInt(agent.operationIds().size());
                operationId = agent.operationIds().get(k);
                expected = agent.taskIds().get(k);
            } else {
                operationId = UUID.randomUUID().toString();
                expected = null;
            }
            long began = System.nanoTime();
            Answer answer;
            try {
                answer = call(agent, operationId);
            } catch (RuntimeException e) {
                answer = new Answer.Other(e.toString());
            }
            long took = System.nanoTime() - began;
            requests++;
            if (answer instanceof Answer.Task(String taskId) && (expected == null || expected.equals(taskId))) {
                tasks++;
                if (recorded == latencies.length) {
                    latencies = Arrays.copyOf(latencies, latencies.length * 2);
                }
                latencies[recorded++] = took;
            } else {
                unexpected++;
            }
        }
        return new Tally(tasks, requests, unexpected, Arrays.copyOf(latencies, recorded));
    }

    /** One task-augmented {@code tools/call} of {@code checkout} with the load's body and {@code operationId}. */
    private static Answer call(Agent agent, String operationId) {
        Map<String, Object> arguments = new LinkedHashMap<>(CheckoutBody.ARGUMENTS);
        arguments.put("operationId", operationId);
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("name", CheckoutBody.TYPE);
        params.put("arguments", arguments);
        params.put("_meta", Map.of(
                "io.modelcontextprotocol/protocolVersion", McpSchema.LATEST_PROTOCOL_VERSION,
                "io.modelcontextprotocol/clientInfo", Map.of("name", "opledger-cli-load", "version", "1"),
                "io.modelcontextprotocol/clientCapabilities", Map.of("extensions", Map.of(TASKS, Map.of()))));
        var message = new JsonRpc.JSONRPCRequest("2.0", "tools/call", agent.ids().incrementAndGet(), params);
        var request = McpTransportRequest.builder(message, McpSchema.LATEST_PROTOCOL_VERSION)
                .name(CheckoutBody.TYPE)
                .roundTimeout(TIMEOUT)
                .build();
        JsonRpc.JSONRPCResponse response = agent.transport().exchange(request)
                .filter(JsonRpc.JSONRPCResponse.class::isInstance)
                .cast(JsonRpc.JSONRPCResponse.class)
                .blockLast(TIMEOUT.plusSeconds(1));
        return answer(response);
    }

    static Answer answer(JsonRpc.JSONRPCResponse response) {
        if (response == null) {
            return new Answer.Other("no JSON-RPC response");
        }
        if (response.error() != null) {
            return new Answer.Other("error " + response.error().code() + " " + response.error().message());
        }
        if (response.result() instanceof Map<?, ?> result && "task".equals(result.get("resultType"))
                && result.get("taskId") instanceof String taskId && !taskId.isEmpty()) {
            return new Answer.Task(taskId);
        }
        return new Answer.Other("not a CreateTaskResult: " + response.result());
    }
}
