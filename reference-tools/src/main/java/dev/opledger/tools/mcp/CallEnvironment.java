package dev.opledger.tools.mcp;

import dev.opledger.tools.fault.Faults;
import io.modelcontextprotocol.common.McpTransportContext;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What a call needs from its HTTP request, carried to the tool handler in the SDK's transport
 * context: the fault header and the request's {@link ResponseFate}.
 */
record CallEnvironment(@Nullable String faultHeader, ResponseFate fate) {

    private static final String KEY = CallEnvironment.class.getName();

    /** The SDK transports' context extractor. */
    static McpTransportContext extract(HttpServletRequest request) {
        return McpTransportContext.create(
                Map.of(KEY, new CallEnvironment(request.getHeader(Faults.HEADER), ResponseFate.of(request))));
    }

    static CallEnvironment of(McpTransportContext context) {
        return context.get(KEY) instanceof CallEnvironment environment ? environment
                : new CallEnvironment(null, ResponseFate.unattached());
    }
}
