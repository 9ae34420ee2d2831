package dev.opledger.mcp.internal;

import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.client.McpResponseLostException;
import io.modelcontextprotocol.modern.client.McpTimeoutException;
import io.modelcontextprotocol.modern.client.transport.McpHttpStatusException;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpTransportSessionNotFoundException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * What a failed call means. Only a JSON-RPC error by which the server refused the request before
 * running anything (parse error, invalid request, unknown method, invalid params, a missing client
 * capability) is an answer; everything else — no connection, a timeout, a lost response, an HTTP
 * error, an internal error, an answer that cannot be read — leaves the outcome unknown.
 */
final class Failures {

    /** -32700 parse error, -32600 invalid request, -32601 method not found, -32602 invalid params, -32021 missing capability. */
    private static final Set<Integer> REFUSALS = Set.of(-32700, -32600, -32601, -32602, -32021);

    private Failures() {
    }

    /** The server's refusal, if the failure is one. */
    static Optional<String> refusal(Throwable failure) {
        Integer code = jsonRpcCode(failure);
        return code != null && REFUSALS.contains(code)
                ? Optional.of("the server refused the request: JSON-RPC error " + code + " " + failure.getMessage())
                : Optional.empty();
    }

    /**
     * Whether the failure is a connection that could not be made (refused, or not made within the
     * connect timeout): nothing was sent on it, so the call did not happen.
     */
    static boolean unreachable(Throwable failure) {
        return find(failure, ConnectException.class) != null || find(failure, HttpConnectTimeoutException.class) != null;
    }

    /** Why the outcome is unknown, in words for the person reading a log or a review. */
    static String reason(Throwable failure, Duration timeout) {
        if (find(failure, McpResponseLostException.class) != null) {
            return "the connection broke after the request was sent and the response was lost";
        }
        if (find(failure, McpTimeoutException.class) != null || find(failure, TimeoutException.class) != null
                || failure.getCause() == null && failure.getMessage() != null
                && failure.getMessage().startsWith("Timeout on blocking read")) {
            return "no answer within " + timeout.toMillis() + " ms";
        }
        if (find(failure, ConnectException.class) != null || find(failure, HttpConnectTimeoutException.class) != null) {
            return "cannot connect to the server";
        }
        McpHttpStatusException status = find(failure, McpHttpStatusException.class);
        if (status != null) {
            return "the server answered HTTP " + status.statusCode();
        }
        if (find(failure, McpTransportSessionNotFoundException.class) != null) {
            return "the server no longer knows the session";
        }
        Integer code = jsonRpcCode(failure);
        if (code != null) {
            return "the server answered JSON-RPC error " + code + " " + failure.getMessage();
        }
        IOException io = find(failure, IOException.class);
        if (io != null) {
            return "the connection broke during the call and the response was lost (" + describe(io) + ")";
        }
        return describe(rootCause(failure));
    }

    static @Nullable Integer jsonRpcCode(Throwable failure) {
        if (failure instanceof McpException modern) {
            return modern.error().code();
        }
        if (failure instanceof McpError classic && classic.getJsonRpcError() != null) {
            return classic.getJsonRpcError().code();
        }
        return null;
    }

    static <T extends Throwable> @Nullable T find(Throwable failure, Class<T> type) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (type.isInstance(cause)) {
                return type.cast(cause);
            }
        }
        return null;
    }

    private static Throwable rootCause(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    private static String describe(Throwable failure) {
        return failure.getClass().getSimpleName() + (failure.getMessage() == null ? "" : ": " + failure.getMessage());
    }
}
