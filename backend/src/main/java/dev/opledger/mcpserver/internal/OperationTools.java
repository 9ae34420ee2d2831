package dev.opledger.mcpserver.internal;

import dev.opledger.api.ProblemType;
import dev.opledger.claim.ClaimService;
import dev.opledger.claim.OperationState;
import dev.opledger.graph.OperationType;
import dev.opledger.graph.OperationTypes;
import dev.opledger.mcptasks.TasksExtension;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationMdc;
import dev.opledger.submission.Submission;
import dev.opledger.submission.SubmissionOutcome;
import dev.opledger.submission.SubmissionService;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema.CallToolOutcome;
import io.modelcontextprotocol.modern.McpSchema.CallToolRequest;
import io.modelcontextprotocol.modern.McpSchema.Tool;
import io.modelcontextprotocol.modern.McpSchema.ToolAnnotations;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import io.modelcontextprotocol.modern.server.feature.McpSyncToolRepository;
import io.modelcontextprotocol.modern.server.feature.ToolsPage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Every operation type as a tool. The input schema is the type's arguments schema plus a required
 * {@code operationId} (the caller's key, as the REST {@code Idempotency-Key}); a call submits the
 * command {@code {"type": <tool>, "arguments": <arguments without operationId>}} through the
 * same façade as REST, so both compute one payload hash for one command, and answers with the
 * operation's current state, or with a task when the client declares the tasks extension.
 */
final class OperationTools implements McpSyncToolRepository {

    static final String OPERATION_ID = "operationId";

    private final SubmissionService submissions;
    private final ClaimService claims;
    private final TaskStore tasks;
    private final McpJsonMapper json;
    private final McpServerProperties properties;
    private final Map<String, Tool> definitions;

    OperationTools(SubmissionService submissions, ClaimService claims, TaskStore tasks, OperationTypes types,
            McpJsonMapper json, McpServerProperties properties) {
        this.submissions = submissions;
        this.claims = claims;
        this.tasks = tasks;
        this.json = json;
        this.properties = properties;
        Map<String, Tool> byName = new LinkedHashMap<>();
        for (String name : types.names()) {
            byName.put(name, definition(types.find(name).orElseThrow(), json));
        }
        this.definitions = Map.copyOf(byName);
    }

    @Override
    public ToolsPage list(McpRequestContext context, @Nullable String cursor) {
        return ToolsPage.of(definitions.values().stream().sorted((a, b) -> a.name().compareTo(b.name())).toList());
    }

    @Override
    public @Nullable McpSyncTool find(McpRequestContext context, String name) {
        Tool tool = definitions.get(name);
        return tool == null ? null : McpSyncTool.of(tool, (call, request) -> McpSyncResponse.result(
                DatabaseOutage.answering("tools/call", () -> call(call, request))));
    }

    private CallToolOutcome call(McpRequestContext context, CallToolRequest request) {
        Caller caller = Caller.of(context.transportContext());
        Map<String, Object> arguments = request.arguments() == null ? Map.of() : request.arguments();
        OperationId operationId = operationId(arguments.get(OPERATION_ID));
        try (var ignored = OperationMdc.put(operationId)) {
            Map<String, Object> rest = new LinkedHashMap<>(arguments);
            rest.remove(OPERATION_ID);
            Map<String, Object> command = new LinkedHashMap<>();
            command.put("type", request.name());
            command.put("arguments", rest);
            var submission = new Submission(caller.subject(), operationId, bytes(command), new Submission.Proof.Agent(),
                    new Submission.Arrival(UUID.randomUUID(), caller.userAgent(), caller.clientAddress()));
            OperationState operation = switch (submissions.submit(submission)) {
                case SubmissionOutcome.Accepted accepted -> accepted.operation();
                case SubmissionOutcome.Replayed replayed -> replayed.operation();
                case SubmissionOutcome.KeyReused reused -> throw Refusals.of(ProblemType.KEY_REUSE,
                        "operation " + operationId + " was submitted with payload hash "
                                + reused.operation().payloadHash().hex() + "; this call's payload hash is "
                                + reused.offeredHash().hex() + ". Use a new operationId for a new command.",
                        operationId);
                case SubmissionOutcome.OperationIdTaken taken -> throw Refusals.of(ProblemType.KEY_REUSE,
                        "operationId " + operationId
                                + " is already in use. Use a new operationId (a new random UUID) for this command.",
                        operationId);
                case SubmissionOutcome.MalformedCommand malformed ->
                        throw Refusals.of(ProblemType.MALFORMED_BODY, malformed.detail(), operationId);
                case SubmissionOutcome.UnknownType unknown -> throw Refusals.of(ProblemType.UNKNOWN_OPERATION_TYPE,
                        "there is no tool \"" + unknown.type() + "\"", operationId);
                case SubmissionOutcome.InvalidArguments invalid ->
                        throw Refusals.invalidArguments(invalid.type(), invalid.violations(), operationId);
                // an agent's attempt never meets App Attest
                case SubmissionOutcome.AttestationRefused refused ->
                        throw new IllegalStateException("App Attest refused an agent's attempt: " + refused.detail());
            };
            if (!TasksExtension.declaredBy(context)) {
                return OperationView.result(operation);
            }
            var task = tasks.createOrFind(caller.subject(), operationId, operation.payloadHash());
            // the operation may have moved on while the task was written; the task shows its state now
            OperationState now = claims.find(caller.subject(), operationId).orElse(operation);
            return TaskView.created(task, now, properties.pollInterval());
        }
    }

    private static OperationId operationId(@Nullable Object value) {
        if (!(value instanceof String text)) {
            throw Refusals.of(ProblemType.IDEMPOTENCY_KEY, value == null
                    ? "the arguments have no operationId: send a new random UUID as operationId, and the same one "
                            + "when you retry"
                    : "operationId must be a string: a UUID in its 36-character text form", null);
        }
        try {
            return OperationId.parse(text);
        } catch (IllegalArgumentException e) {
            throw Refusals.of(ProblemType.IDEMPOTENCY_KEY,
                    "operationId is not a UUID in its 36-character text form", null);
        }
    }

    private byte[] bytes(Map<String, Object> command) {
        try {
            return json.writeValueAsBytes(command);
        } catch (IOException e) {
            throw new McpException(-32603, "the command could not be written as JSON");
        }
    }

    private static Tool definition(OperationType type, McpJsonMapper json) {
        Map<String, Object> schema = new LinkedHashMap<>(schema(type, json));
        @SuppressWarnings("unchecked")
        Map<String, Object> properties = new LinkedHashMap<>(
                (Map<String, Object>) schema.getOrDefault("properties", Map.of()));
        properties.put(OPERATION_ID, Map.of("type", "string", "format", "uuid",
                "description", "your key for this operation: a new random UUID per command, the same one on "
                        + "every retry of it (as the REST API's Idempotency-Key)"));
        schema.put("properties", properties);
        @SuppressWarnings("unchecked")
        List<Object> required = new ArrayList<>((List<Object>) schema.getOrDefault("required", List.of()));
        required.addFirst(OPERATION_ID);
        schema.put("required", required);
        Object title = schema.get("title");
        Object description = schema.get("description");
        var builder = Tool.builder(type.name(), schema)
                .annotations(new ToolAnnotations(title instanceof String t ? t : type.name(), false, true, true,
                        true));
        if (description instanceof String text) {
            builder.description(text);
        }
        return builder.build();
    }

    private static Map<String, Object> schema(OperationType type, McpJsonMapper json) {
        ClassLoader loader = type.getClass().getClassLoader();
        try (InputStream in = (loader == null ? ClassLoader.getSystemClassLoader() : loader)
                .getResourceAsStream(type.argumentsSchema())) {
            if (in == null) {
                throw new IllegalStateException("no schema at " + type.argumentsSchema());
            }
            return json.readValue(in.readAllBytes(), new TypeRef<Map<String, Object>>() {
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
