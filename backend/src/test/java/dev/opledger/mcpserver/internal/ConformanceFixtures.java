package dev.opledger.mcpserver.internal;

import dev.opledger.claim.ClientInput;
import dev.opledger.claim.LeasedOperation;
import dev.opledger.claim.LifecycleService;
import dev.opledger.graph.ExecutionOutcome;
import dev.opledger.graph.LeaseGuard;
import dev.opledger.graph.OperationType;
import dev.opledger.mcptasks.TasksExtension;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.modern.McpSchema.AudioContent;
import io.modelcontextprotocol.modern.McpSchema.CallToolRequest;
import io.modelcontextprotocol.modern.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.modern.McpSchema.CallToolOutcome;
import io.modelcontextprotocol.modern.McpSchema.CallToolResult;
import io.modelcontextprotocol.modern.McpSchema.Content;
import io.modelcontextprotocol.modern.McpSchema.ElicitFormRequest;
import io.modelcontextprotocol.modern.McpSchema.EmbeddedResource;
import io.modelcontextprotocol.modern.McpSchema.ImageContent;
import io.modelcontextprotocol.modern.McpSchema.TextContent;
import io.modelcontextprotocol.modern.McpSchema.TextResourceContents;
import io.modelcontextprotocol.modern.McpSchema.Tool;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import io.modelcontextprotocol.modern.server.feature.McpSyncToolRepository;
import io.modelcontextprotocol.modern.server.feature.ToolsPage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.context.annotation.Profile;

/**
 * The fixture tools the official MCP conformance suite calls (scripts/conformance.sh), beside the
 * node's operation tools. Test sources and profile {@code conformance} only: a production node
 * never serves them.
 * <ul>
 *   <li>The sync fixtures (greet, text, error, image, audio, embedded resource, mixed) answer at
 *       once and make no operation; test_tool_with_progress streams three progress notifications
 *       first. The resources and prompts are {@link ConformanceFeatures}.</li>
 *   <li>The input fixtures: confirm_delete and multi_input ask the client for input while their
 *       task runs ({@code input_required}, answered with {@code tasks/update}); test_tool_with_task
 *       asks before its task exists (a synchronous multi-round-trip {@code tools/call},
 *       {@link MultiRoundTrip}). Operation types too, through the node's real input path.</li>
 *   <li>The task fixtures (slow_compute, failing_job, protocol_error_job) are operation types of
 *       their own, so their tasks are the node's real ones: submitted through the façade, a durable
 *       {@code mcp_task} row, run by the node's workers, reported by {@code tasks/get}. The suite
 *       sends no operationId (it knows no such thing), so their tools take a fresh one per call; an
 *       agent's call of a real operation tool must carry its own.</li>
 * </ul>
 */
@Configuration(proxyBeanMethods = false)
@Profile("conformance")
class ConformanceFixtures {

    /** A 1×1 transparent PNG. */
    private static final Content IMAGE = ImageContent.builder(
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
            "image/png").build();
    /** A WAV header with no samples. */
    private static final Content AUDIO = AudioContent.builder(
            "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=", "audio/wav").build();
    private static final Content RESOURCE = EmbeddedResource.builder(
            new TextResourceContents("test://embedded-resource", "text/plain", "This is an embedded resource content.",
                    null)).build();

    static final List<McpSyncTool> FIXTURES = List.of(
            fixture("greet", "Says hello (sync only)", Map.of("name", Map.of("type", "string")),
                    arguments -> text("Hello, " + arguments.getOrDefault("name", "World") + "!", false)),
            fixture("test_simple_text", "Returns one text item", Map.of(),
                    arguments -> text("This is a simple text response for testing.", false)),
            fixture("test_error_handling", "Always fails as a tool (isError)", Map.of(),
                    arguments -> text("This tool intentionally returns an error for testing", true)),
            fixture("test_image_content", "Returns one image", Map.of(), arguments -> result(IMAGE)),
            fixture("test_audio_content", "Returns one sound", Map.of(), arguments -> result(AUDIO)),
            fixture("test_embedded_resource", "Returns one embedded text resource", Map.of(),
                    arguments -> result(RESOURCE)),
            fixture("test_multiple_content_types", "Returns text, an image and a resource", Map.of(),
                    arguments -> result(TextContent.builder("Multiple content types test:").build(), IMAGE,
                            RESOURCE)),
            withProgress());

    /**
     * test_tool_with_progress: a streamed answer (the SDK's {@link McpSyncResponse#streaming}) that
     * sends progress 0, 50 and 100 of 100 about 50 ms apart for the call's {@code progressToken}
     * (the SDK's notifier sends nothing without one), then its text.
     */
    private static McpSyncTool withProgress() {
        Tool tool = Tool.builder("test_tool_with_progress", Map.of("type", "object", "properties", Map.of()))
                .description("Reports progress 0, 50, 100 of 100, then answers").build();
        return McpSyncTool.of(tool, (context, request) -> McpSyncResponse.<CallToolOutcome>streaming(notifier -> {
            for (int progress = 0; progress <= 100; progress += 50) {
                if (progress > 0) {
                    pause(Duration.ofMillis(50));
                }
                notifier.progress(progress, 100.0, null);
            }
            return text("Progress test completed (0, 50, 100 of 100).", false);
        }));
    }

    /** The client capability a task-only fixture requires: without it, -32021 before the tool runs. */
    private static final ClientCapabilities TASKS = ClientCapabilities.builder()
            .extensions(Map.of(TasksExtension.ID, Map.of())).build();

    private static final String SLOW_COMPUTE = "slow_compute";
    private static final String FAILING_JOB = "failing_job";
    private static final String PROTOCOL_ERROR_JOB = "protocol_error_job";

    /**
     * slow_compute: works for {@code seconds} seconds (0: at once) in one step without effects,
     * then succeeds; stops CANCELLED as soon as the worker's heartbeat finds a cancel pending.
     */
    @Bean
    FixtureType conformanceSlowCompute() {
        return new FixtureType(SLOW_COMPUTE, (arguments, lease) -> {
            // the fixture's whole point is to take this long; the suite polls tasks/get meanwhile
            var until = System.nanoTime()
                    + Duration.ofSeconds(arguments.get("seconds") instanceof Number n ? n.longValue() : 0).toNanos();
            while (System.nanoTime() < until) {
                if (lease.cancelRequested()) {
                    return new ExecutionOutcome.Cancelled("slow_compute stopped: a cancel was requested");
                }
                pause(Duration.ofNanos(Math.min(CANCEL_CHECK.toNanos(), until - System.nanoTime())));
            }
            return new ExecutionOutcome.Succeeded();
        });
    }

    /** How often slow_compute looks at its lease's cancel flag (a field, no query). */
    private static final Duration CANCEL_CHECK = Duration.ofMillis(100);

    /** failing_job: fails as a tool (the operation FAILED) after about a second; tasks only. */
    @Bean
    FixtureType conformanceFailingJob() {
        return new FixtureType(FAILING_JOB, (arguments, lease) -> {
            pause(Duration.ofSeconds(1));
            return new ExecutionOutcome.Failed("failing_job always fails (a conformance fixture)");
        });
    }

    /** protocol_error_job: its run breaks down with an unexpected exception, as a crash would. */
    @Bean
    FixtureType conformanceProtocolErrorJob() {
        return new FixtureType(PROTOCOL_ERROR_JOB, (arguments, lease) -> {
            throw new IllegalStateException("protocol_error_job breaks down (a conformance fixture)");
        });
    }

    private static final String CONFIRM_DELETE = "confirm_delete";
    private static final String MULTI_INPUT = "multi_input";
    private static final String TOOL_WITH_TASK = "test_tool_with_task";

    /**
     * confirm_delete: its run asks the client to confirm (one form elicitation, key
     * {@code confirm}) and stops AWAITING_INPUT — the task is {@code input_required}; the answer
     * through {@code tasks/update} resumes it, and it succeeds saying whether the client confirmed
     * (it deletes nothing: a fixture).
     */
    @Bean
    FixtureType conformanceConfirmDelete(LifecycleService lifecycle) {
        return new FixtureType(CONFIRM_DELETE, (arguments, lease) -> {
            String file = String.valueOf(arguments.get("filename"));
            ClientInput confirm = inputs(lifecycle, lease).get("confirm");
            if (confirm == null || confirm.open()) {
                return new ExecutionOutcome.AwaitingInput("asks the client to confirm deleting " + file,
                        Map.of("confirm", request(form("Delete " + file + "?",
                                Map.of("confirm", Map.of("type", "boolean", "description", "true: delete it")),
                                List.of("confirm")))));
            }
            Map<String, Object> answer = InputResponses.read(confirm.response());
            boolean confirmed = "accept".equals(answer.get("action"))
                    && answer.get("content") instanceof Map<?, ?> content && Boolean.TRUE.equals(content.get("confirm"));
            return new ExecutionOutcome.Succeeded(confirmed ? "Deleted " + file + " (the client confirmed)."
                    : "Kept " + file + ": the client did not confirm.");
        });
    }

    /** multi_input: asks two things at once (keys {@code first}, {@code second}); succeeds once both are answered. */
    @Bean
    FixtureType conformanceMultiInput(LifecycleService lifecycle) {
        return new FixtureType(MULTI_INPUT, (arguments, lease) -> {
            Map<String, ClientInput> inputs = inputs(lifecycle, lease);
            Map<String, String> asks = new LinkedHashMap<>();
            for (String key : List.of("first", "second")) {
                ClientInput input = inputs.get(key);
                if (input == null || input.open()) {
                    asks.put(key, request(form("The " + key + " input: a name, and whether to go on",
                            Map.of("name", Map.of("type", "string"), "confirm", Map.of("type", "boolean")),
                            List.of("name"))));
                }
            }
            if (!asks.isEmpty()) {
                return new ExecutionOutcome.AwaitingInput("asks the client for two inputs", asks);
            }
            return new ExecutionOutcome.Succeeded("Got " + name(inputs.get("first")) + " and "
                    + name(inputs.get("second")) + ".");
        });
    }

    /** test_tool_with_task's task: greets the user_name gathered before the task was created. */
    @Bean
    FixtureType conformanceToolWithTask() {
        return new FixtureType(TOOL_WITH_TASK,
                (arguments, lease) -> new ExecutionOutcome.Succeeded("Hello, " + arguments.get("user_name") + "!"));
    }

    /**
     * test_tool_with_task's call: round 1 (no answers) → InputRequiredResult asking
     * {@code user_name}, a sealed requestState; round 2 with the answer → the operation (its
     * operationId from the round: a replay finds the same one) and its CreateTaskResult.
     */
    private static McpSyncTool toolWithTask(McpSyncTool operationTool, MultiRoundTrip rounds) {
        Map<String, ElicitFormRequest> asks = Map.of("user_name", form("What is your name?",
                Map.of("name", Map.of("type", "string", "description", "your name")), List.of("name")));
        McpSyncTool.Handler handler = (context, request) -> switch (rounds.round(context, request, asks)) {
            case MultiRoundTrip.Round.Ask ask -> McpSyncResponse.result(ask.result());
            case MultiRoundTrip.Round.Answered answered -> {
                @SuppressWarnings("unchecked")
                Map<String, Object> answer = (Map<String, Object>) answered.answers().get("user_name");
                if (!"accept".equals(answer.get("action"))) {
                    yield McpSyncResponse.result(text("test_tool_with_task needs your name; you did not give it.", true));
                }
                Object name = ((Map<?, ?>) answer.get("content")).get("name");
                Map<String, Object> arguments = new LinkedHashMap<>();
                arguments.put("user_name", name);
                arguments.put(OperationTools.OPERATION_ID, answered.operationId().toString());
                yield operationTool.handler().call(context, CallToolRequest.builder(request.name())
                        .arguments(arguments).meta(request.meta()).build());
            }
        };
        Tool definition = Tool.builder(TOOL_WITH_TASK, Map.of("type", "object", "properties", Map.of()))
                .description("Asks your name first (multi-round-trip), then greets you in a task (tasks only)")
                .annotations(operationTool.definition().annotations()).build();
        return McpSyncTool.of(definition, TASKS, handler);
    }

    private static Map<String, ClientInput> inputs(LifecycleService lifecycle, LeaseGuard lease) {
        Map<String, ClientInput> byKey = new LinkedHashMap<>();
        lifecycle.inputs(lease.fence().operationId()).forEach(input -> byKey.put(input.key(), input));
        return byKey;
    }

    private static ElicitFormRequest form(String message, Map<String, Object> properties, List<String> required) {
        return ElicitFormRequest.builder(message, Map.of("type", "object", "properties", properties, "required", required))
                .build();
    }

    private static String request(ElicitFormRequest form) {
        return InputResponses.write(MultiRoundTrip.wire(form));
    }

    private static Object name(ClientInput input) {
        Map<String, Object> answer = InputResponses.read(input.response());
        return answer.get("content") instanceof Map<?, ?> content ? content.get("name") : "(declined)";
    }

    @Bean
    @Primary
    McpSyncToolRepository conformanceTools(OperationTools operations, MultiRoundTrip rounds) {
        return new McpSyncToolRepository() {
            @Override
            public ToolsPage list(McpRequestContext context, @Nullable String cursor) {
                List<Tool> all = new ArrayList<>();
                for (Tool tool : operations.list(context, cursor).tools()) {
                    all.add(TOOL_WITH_TASK.equals(tool.name()) ? toolWithTask(operations.find(context, TOOL_WITH_TASK),
                            rounds).definition() : TASK_FIXTURES.containsKey(tool.name()) ? withoutOperationId(tool) : tool);
                }
                FIXTURES.forEach(tool -> all.add(tool.definition()));
                all.sort((a, b) -> a.name().compareTo(b.name()));
                return ToolsPage.of(all);
            }

            @Override
            public @Nullable McpSyncTool find(McpRequestContext context, String name) {
                McpSyncTool operationTool = operations.find(context, name);
                if (operationTool != null && TOOL_WITH_TASK.equals(name)) {
                    return toolWithTask(operationTool, rounds);
                }
                if (operationTool != null && TASK_FIXTURES.containsKey(name)) {
                    return taskFixture(operationTool, TASK_FIXTURES.get(name));
                }
                return FIXTURES.stream().filter(tool -> tool.definition().name().equals(name)).findFirst()
                        .orElse(operationTool);
            }
        };
    }

    /** The task fixtures by name, and whether a call must declare the tasks extension. */
    private static final Map<String, Boolean> TASK_FIXTURES = Map.of(SLOW_COMPUTE, false, FAILING_JOB, true,
            PROTOCOL_ERROR_JOB, false, CONFIRM_DELETE, true, MULTI_INPUT, true);

    /** The operation tool under a fresh operationId per call; with {@code tasksOnly}, -32021 without the extension. */
    private static McpSyncTool taskFixture(McpSyncTool operationTool, boolean tasksOnly) {
        McpSyncTool.Handler handler = (context, request) -> {
            Map<String, Object> arguments = new LinkedHashMap<>(
                    request.arguments() == null ? Map.of() : request.arguments());
            arguments.put(OperationTools.OPERATION_ID, UUID.randomUUID().toString());
            return operationTool.handler().call(context, CallToolRequest.builder(request.name()).arguments(arguments)
                    .meta(request.meta()).build());
        };
        Tool definition = withoutOperationId(operationTool.definition());
        return tasksOnly ? McpSyncTool.of(definition, TASKS, handler) : McpSyncTool.of(definition, handler);
    }

    private static Tool withoutOperationId(Tool tool) {
        Map<String, Object> schema = new LinkedHashMap<>(tool.inputSchema());
        @SuppressWarnings("unchecked")
        Map<String, Object> properties = new LinkedHashMap<>((Map<String, Object>) schema.get("properties"));
        properties.remove(OperationTools.OPERATION_ID);
        schema.put("properties", properties);
        @SuppressWarnings("unchecked")
        List<Object> required = new ArrayList<>((List<Object>) schema.get("required"));
        required.remove(OperationTools.OPERATION_ID);
        schema.put("required", required);
        var builder = Tool.builder(tool.name(), schema).annotations(tool.annotations());
        if (tool.description() != null) {
            builder.description(tool.description());
        }
        return builder.build();
    }

    /**
     * A fixture's operation type: arguments schema {@code conformance-fixtures/<name>.schema.json},
     * and a run that is a function of the arguments (and of the lease, for a cancel pending).
     */
    record FixtureType(String name, BiFunction<Map<String, Object>, LeaseGuard, ExecutionOutcome> run)
            implements OperationType {

        @Override
        public String argumentsSchema() {
            return "conformance-fixtures/" + name + ".schema.json";
        }

        @Override
        public ExecutionOutcome execute(LeasedOperation operation, LeaseGuard lease) {
            return run.apply(arguments(operation), lease);
        }
    }

    private static Map<String, Object> arguments(LeasedOperation operation) {
        try {
            Map<String, Object> command = McpJsonDefaults.getMapper().readValue(operation.command(),
                    new TypeRef<Map<String, Object>>() {
                    });
            @SuppressWarnings("unchecked")
            Map<String, Object> arguments = (Map<String, Object>) command.getOrDefault("arguments", Map.of());
            return arguments;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static McpSyncTool fixture(String name, String description, Map<String, Object> properties,
            Function<Map<String, Object>, CallToolResult> answer) {
        Tool tool = Tool.builder(name, Map.of("type", "object", "properties", properties)).description(description)
                .build();
        return McpSyncTool.of(tool, (context, request) -> McpSyncResponse.result(
                answer.apply(request.arguments() == null ? Map.of() : request.arguments())));
    }

    private static CallToolResult result(Content... content) {
        return CallToolResult.builder().content(List.of(content)).build();
    }

    private static CallToolResult text(String text, boolean isError) {
        return CallToolResult.builder().addContent(TextContent.builder(text).build()).isError(isError).build();
    }
}
