package dev.opledger.tools.mcp;

import io.modelcontextprotocol.server.McpSyncServer;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@code /mcp}: hands each request to the transport of the revision it speaks. A 2026-07-28
 * request carries {@code Mcp-Method} and {@code MCP-Protocol-Version: 2026-07-28} (or later);
 * everything else (an {@code initialize} without a version, 2025-11-25 requests with a session,
 * the GET stream, DELETE) is classic. Each response is wrapped so a call can drop it.
 */
final class McpEndpointServlet extends HttpServlet {

    static final String MODERN_VERSION = "2026-07-28";

    private final HttpServlet modern;
    private final HttpServlet classic;
    private final McpSyncServer classicServer;

    McpEndpointServlet(HttpServlet modern, HttpServlet classic, McpSyncServer classicServer) {
        this.modern = modern;
        this.classic = classic;
        this.classicServer = classicServer;
    }

    static boolean speaksModern(HttpServletRequest request) {
        String version = request.getHeader("MCP-Protocol-Version");
        return request.getHeader("Mcp-Method") != null || version != null && version.compareTo(MODERN_VERSION) >= 0;
    }

    @Override
    public void init(ServletConfig config) throws ServletException {
        super.init(config);
        modern.init(config);
        classic.init(config);
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        var wrapped = new DroppableResponse(response, ResponseFate.attachTo(request));
        (speaksModern(request) ? modern : classic).service(request, wrapped);
    }

    @Override
    public void destroy() {
        classicServer.closeGracefully();
        modern.destroy();
        classic.destroy();
        super.destroy();
    }
}
