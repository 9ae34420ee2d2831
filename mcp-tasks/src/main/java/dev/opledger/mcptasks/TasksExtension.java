package dev.opledger.mcptasks;

import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import java.util.Map;

/** The extension's identifier, how a request declares it, and the errors the specification names. */
public final class TasksExtension {

    /** The extension's identifier, in capabilities' {@code extensions}. */
    public static final String ID = "io.modelcontextprotocol/tasks";

    /** The methods the extension adds. */
    public static final String GET = "tasks/get";
    public static final String UPDATE = "tasks/update";
    public static final String CANCEL = "tasks/cancel";

    /** The specification's message for an unknown task id (-32602). */
    public static final String NOT_FOUND = "Failed to retrieve task: Task not found";

    private TasksExtension() {
    }

    /** Whether this request's client capabilities declare the extension (it is declared per request). */
    public static boolean declaredBy(McpRequestContext context) {
        var capabilities = context.clientCapabilities();
        return capabilities != null && capabilities.extensions() != null
                && capabilities.extensions().containsKey(ID);
    }

    /** The client capabilities that declare the extension, for a request's {@code _meta}. */
    public static Map<String, Object> declaringCapabilities() {
        return Map.of("extensions", Map.of(ID, Map.of()));
    }

    /** -32021: the request needs a client that declares the extension. */
    public static McpException missingCapability() {
        return McpException.missingClientCapability(
                ClientCapabilities.builder().extensions(Map.of(ID, Map.of())).build());
    }

    /** -32602 for a task id that is unknown to the caller (never existed, or another caller's). */
    public static McpException notFound() {
        return McpException.invalidParams(NOT_FOUND);
    }
}
