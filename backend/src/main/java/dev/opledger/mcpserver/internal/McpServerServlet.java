package dev.opledger.mcpserver.internal;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.server.transport.HttpServletMcpTransport;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;

/**
 * The servlet at {@code /mcp}, handing every request to the SDK's transport. Servlet
 * registrations are created while the web server starts, before JPA and the services the tools
 * need exist; the transport (and with it those services) is resolved when the servlet is
 * initialised, once the context is ready.
 *
 * <p>The transport refuses some requests before JSON-RPC with a bare HTTP status ({@code
 * sendError}: 413 too large, 421 a foreign Host, 403 a foreign Origin, 415, 404, 405); Spring
 * Boot would render those as its own error page, which tells an agent nothing. Here each becomes
 * a JSON-RPC error (id null, -32600) under the same status, saying what was refused and why.
 */
final class McpServerServlet extends HttpServlet {

    /** JSON-RPC "invalid request": refused by the transport before any method ran. */
    static final int REFUSED_BY_TRANSPORT = -32600;

    private final transient ObjectProvider<McpServerTransport> transports;
    private final transient McpJsonMapper json;
    private transient volatile @Nullable HttpServletMcpTransport transport;

    McpServerServlet(ObjectProvider<McpServerTransport> transports, McpJsonMapper json) {
        this.transports = transports;
        this.json = json;
    }

    /** The SDK's transport servlet, held by a bean that is not itself a servlet (Boot would map it). */
    record McpServerTransport(HttpServletMcpTransport servlet) {
    }

    @Override
    public void init(ServletConfig config) throws ServletException {
        super.init(config);
        HttpServletMcpTransport resolved = transports.getObject().servlet();
        resolved.init(config);
        transport = resolved;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        var refusals = new JsonRpcRefusals(response, json);
        HttpServletMcpTransport current = transport;
        if (current == null) {
            refusals.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
            return;
        }
        current.service(request, refusals);
    }

    /** The response, with {@code sendError} written as a JSON-RPC error instead of an error dispatch. */
    private static final class JsonRpcRefusals extends HttpServletResponseWrapper {

        private final McpJsonMapper json;

        JsonRpcRefusals(HttpServletResponse response, McpJsonMapper json) {
            super(response);
            this.json = json;
        }

        @Override
        public void sendError(int status) throws IOException {
            sendError(status, null);
        }

        @Override
        public void sendError(int status, @Nullable String reason) throws IOException {
            if (isCommitted()) {
                super.sendError(status, reason);
                return;
            }
            resetBuffer();
            setStatus(status);
            setContentType("application/json");
            setCharacterEncoding(StandardCharsets.UTF_8);
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("code", REFUSED_BY_TRANSPORT);
            error.put("message", message(status, reason));
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("jsonrpc", "2.0");
            body.put("id", null);
            body.put("error", error);
            getOutputStream().write(json.writeValueAsBytes(body));
            flushBuffer();
        }

        private static String message(int status, @Nullable String reason) {
            String why = reason == null || reason.isBlank() ? "" : ": " + reason;
            return switch (status) {
                case 413 -> "Request too large: the JSON-RPC message is larger than this node accepts "
                        + "(opledger.mcp-server.max-request-size)";
                case 421 -> "Host not allowed" + why + " (DNS-rebinding protection; a deployment serving MCP under "
                        + "another name adds it to opledger.mcp-server.allowed-hosts)";
                case 403 -> "Origin not allowed" + why + " (DNS-rebinding protection: "
                        + "opledger.mcp-server.allowed-origins)";
                case 404, 405 -> "Not an MCP request" + why + ": send JSON-RPC messages with POST to /mcp";
                case 503 -> "The MCP server is starting: try again in a moment";
                default -> "Refused" + why;
            };
        }
    }

    @Override
    public void destroy() {
        HttpServletMcpTransport current = transport;
        if (current != null) {
            current.destroy();
        }
    }
}
