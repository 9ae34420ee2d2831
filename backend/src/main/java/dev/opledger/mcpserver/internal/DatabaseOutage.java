package dev.opledger.mcpserver.internal;

import dev.opledger.api.ProblemType;
import dev.opledger.operation.UnreachableDatabase;
import io.modelcontextprotocol.modern.McpException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A method that needed the database while the node could not reach it ({@link UnreachableDatabase}:
 * PostgreSQL down, restarting, refusing connections, or no pooled connection within Hikari's
 * {@code connection-timeout}). It is answered JSON-RPC {@code -32603} (the ext-tasks spec's code
 * for internal errors; MCP itself uses codes in -32000..-32099, so a server-defined one there could
 * collide) whose {@code data} is the REST API's {@code database-unavailable} problem plus
 * {@code retryAfterSeconds}, REST's {@code Retry-After}: a client tells it from any other internal
 * error by {@code data.type} and sends the same request again. Without this the SDK answers a bare
 * "Internal error" with no data, which a client cannot tell from a bug.
 */
final class DatabaseOutage {

    static final int INTERNAL_ERROR = -32603;

    private static final Logger log = LoggerFactory.getLogger(DatabaseOutage.class);

    private DatabaseOutage() {
    }

    /** {@code work}'s answer, or the database-unavailable error if it failed for want of the database. */
    static <T> T answering(String method, Supplier<T> work) {
        try {
            return work.get();
        } catch (McpException refusal) {
            throw refusal;
        } catch (RuntimeException e) {
            if (!UnreachableDatabase.causedBy(e)) {
                throw e;
            }
            log.warn("database unreachable, {} answered -32603 database-unavailable: {}", method,
                    UnreachableDatabase.reason(e));
            throw unavailable();
        }
    }

    static McpException unavailable() {
        ProblemType type = ProblemType.DATABASE_UNAVAILABLE;
        String detail = "the node cannot reach its database just now; send the same request again after "
                + UnreachableDatabase.RETRY_AFTER_SECONDS + " s (a tools/call with the same operationId: "
                + "a retry never makes a second operation or task)";
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("type", type.type().toString());
        data.put("title", type.title());
        data.put("detail", detail);
        data.put("retryAfterSeconds", UnreachableDatabase.RETRY_AFTER_SECONDS);
        return new McpException(INTERNAL_ERROR, type.title() + ": " + detail, data);
    }
}
