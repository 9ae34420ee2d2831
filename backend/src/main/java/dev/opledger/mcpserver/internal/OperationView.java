package dev.opledger.mcpserver.internal;

import dev.opledger.claim.OperationState;
import dev.opledger.operation.OperationStatus;
import io.modelcontextprotocol.modern.McpSchema.CallToolResult;
import io.modelcontextprotocol.modern.McpSchema.TextContent;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The operation as an MCP tool result: the REST API's representation (operationId, type, status,
 * payloadHash, createdAt, updatedAt) as structured content, and a sentence for a model.
 */
final class OperationView {

    private OperationView() {
    }

    static Map<String, Object> structured(OperationState operation) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("operationId", operation.operationId().toString());
        view.put("type", operation.type());
        view.put("status", operation.status().name());
        view.put("payloadHash", operation.payloadHash().hex());
        view.put("createdAt", operation.createdAt().toString());
        view.put("updatedAt", operation.updatedAt().toString());
        return view;
    }

    /**
     * The tool result for the operation's current state; {@code isError} when the operation ended
     * without doing what was asked (failed or cancelled), which is a tool-level outcome, not a
     * protocol error.
     */
    static CallToolResult result(OperationState operation) {
        return result(operation, null);
    }

    /** As {@link #result(OperationState)}, the sentence followed by what the run said it did ({@code summary}), if it did. */
    static CallToolResult result(OperationState operation, @Nullable String summary) {
        String sentence = sentence(operation);
        return CallToolResult.builder()
                .addContent(TextContent.builder(summary == null ? sentence : sentence + " " + summary).build())
                .structuredContent(structured(operation))
                .isError(operation.status() == OperationStatus.FAILED || operation.status() == OperationStatus.CANCELLED)
                .build();
    }

    static String sentence(OperationState operation) {
        String id = operation.operationId().toString();
        return switch (operation.status()) {
            case ACCEPTED -> "Operation " + id + " (" + operation.type() + ") is accepted and waits for a worker.";
            case RUNNING -> "Operation " + id + " (" + operation.type() + ") is running.";
            case AWAITING_APPROVAL -> "Operation " + id + " (" + operation.type()
                    + ") is waiting for a person's approval in the console.";
            case AWAITING_INPUT -> "Operation " + id + " (" + operation.type()
                    + ") needs input from you: answer the task's inputRequests with tasks/update.";
            case NEEDS_REVIEW -> "Operation " + id + " (" + operation.type()
                    + ") stopped where repeating an effect could duplicate it; a person reviews it in the console.";
            case SUCCEEDED -> "Operation " + id + " (" + operation.type() + ") succeeded.";
            case FAILED -> "Operation " + id + " (" + operation.type() + ") failed.";
            case CANCELLED -> "Operation " + id + " (" + operation.type() + ") was cancelled.";
        };
    }
}
