package dev.opledger.mcpserver.internal;

import dev.opledger.api.ProblemType;
import dev.opledger.graph.CommandCheck;
import dev.opledger.operation.OperationId;
import io.modelcontextprotocol.modern.McpException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * A refused {@code tools/call} as a JSON-RPC error: code -32602 (invalid params: the request
 * cannot be served as sent), {@code data} the same problem details the REST API answers with
 * ({@code type}, {@code title}, {@code detail}, {@code operationId}, and {@code errors} for
 * invalid arguments), so a client switches on the same problem type URIs (docs/mcp.md).
 */
final class Refusals {

    static final int INVALID_PARAMS = -32602;
    private static final int VIOLATIONS_IN_DETAIL = 3;

    private Refusals() {
    }

    static McpException of(ProblemType type, String detail, @Nullable OperationId operationId) {
        return of(type, detail, operationId, Map.of());
    }

    static McpException of(ProblemType type, String detail, @Nullable OperationId operationId,
            Map<String, Object> extensions) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("type", type.type().toString());
        data.put("title", type.title());
        data.put("detail", detail);
        if (operationId != null) {
            data.put("operationId", operationId.toString());
        }
        data.putAll(extensions);
        return new McpException(INVALID_PARAMS, type.title() + ": " + detail, data);
    }

    static McpException invalidArguments(String type, List<CommandCheck.Violation> violations, OperationId operationId) {
        String quoted = violations.stream().limit(VIOLATIONS_IN_DETAIL)
                .map(v -> pointer(v.pointer()) + ": " + v.message())
                .collect(Collectors.joining("; "));
        int more = violations.size() - VIOLATIONS_IN_DETAIL;
        String detail = "the arguments do not match the schema of tool \"" + type + "\": " + quoted
                + (more > 0 ? " (and " + more + " more, see errors)" : "");
        List<Map<String, String>> errors = violations.stream().map(v -> {
            Map<String, String> error = new LinkedHashMap<>();
            error.put("pointer", pointer(v.pointer()));
            error.put("message", v.message());
            return error;
        }).toList();
        return of(ProblemType.INVALID_ARGUMENTS, detail, operationId, Map.of("errors", errors));
    }

    /**
     * The façade points into the REST body ({@code /arguments/quantity}); a tool's arguments are
     * that object itself, so the pointer loses its {@code /arguments} prefix ({@code /quantity}).
     */
    private static String pointer(String bodyPointer) {
        return bodyPointer.startsWith("/arguments") ? bodyPointer.substring("/arguments".length()) : bodyPointer;
    }
}
