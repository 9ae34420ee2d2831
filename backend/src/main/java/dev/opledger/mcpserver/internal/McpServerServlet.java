package dev.opledger.mcpserver.internal;

import io.modelcontextprotocol.modern.server.transport.HttpServletMcpTransport;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;

/**
 * The servlet at {@code /mcp}, handing every request to the SDK's transport. Servlet
 * registrations are created while the web server starts, before JPA and the services the tools
 * need exist; the transport (and with it those services) is resolved when the servlet is
 * initialised, once the context is ready.
 */
final class McpServerServlet extends HttpServlet {

    private final transient ObjectProvider<McpServerTransport> transports;
    private transient volatile @Nullable HttpServletMcpTransport transport;

    McpServerServlet(ObjectProvider<McpServerTransport> transports) {
        this.transports = transports;
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
        HttpServletMcpTransport current = transport;
        if (current == null) {
            response.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
            return;
        }
        current.service(request, response);
    }

    @Override
    public void destroy() {
        HttpServletMcpTransport current = transport;
        if (current != null) {
            current.destroy();
        }
    }
}
