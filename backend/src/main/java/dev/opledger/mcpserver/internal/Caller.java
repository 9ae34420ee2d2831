package dev.opledger.mcpserver.internal;

import dev.opledger.operation.SubjectId;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.modern.McpException;
import jakarta.servlet.http.HttpServletRequest;
import java.security.Principal;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;

/**
 * Who sent an MCP request, taken from the servlet request while it is on the request's thread
 * (the security filter has verified the token by then; the subject is the token's {@code sub}).
 */
record Caller(SubjectId subject, @Nullable String userAgent, @Nullable String clientAddress,
        @Nullable String routedName) {

    private static final String KEY = Caller.class.getName();
    /** SEP-2243's routing header: the request's name (a tool's, a task's id) for intermediaries. */
    static final String MCP_NAME = "Mcp-Name";

    /** The SDK transport's context extractor. */
    static McpTransportContext extract(HttpServletRequest request) {
        Principal principal = request.getUserPrincipal();
        Map<String, Object> context = new HashMap<>();
        if (principal != null && SubjectId.isValid(principal.getName())) {
            context.put(KEY, new Caller(new SubjectId(principal.getName()), request.getHeader(HttpHeaders.USER_AGENT),
                    request.getRemoteAddr(), request.getHeader(MCP_NAME)));
        }
        return McpTransportContext.create(context);
    }

    static Caller of(McpTransportContext context) {
        if (context.get(KEY) instanceof Caller caller) {
            return caller;
        }
        // the security filter refuses such a request with 401 before it gets here
        throw new McpException(-32603, "the request carries no authenticated subject");
    }
}
