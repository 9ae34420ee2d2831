package dev.opledger.tools.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;

class McpEndpointServletTest {

    @Test
    void aRequestOfTheModernRevisionGoesToTheModernServer() {
        assertThat(McpEndpointServlet.speaksModern(request("POST", "2026-07-28", "tools/call"))).isTrue();
        assertThat(McpEndpointServlet.speaksModern(request("POST", null, "server/discover"))).isTrue();
    }

    @Test
    void everythingElseIsClassic() {
        assertThat(McpEndpointServlet.speaksModern(request("POST", null, null))).isFalse();
        assertThat(McpEndpointServlet.speaksModern(request("POST", "2025-11-25", null))).isFalse();
        assertThat(McpEndpointServlet.speaksModern(request("GET", "2025-06-18", null))).isFalse();
    }

    private static MockHttpServletRequest request(String method, String version, String mcpMethod) {
        var request = new MockHttpServletRequest(method, "/mcp");
        if (version != null) {
            request.addHeader("MCP-Protocol-Version", version);
        }
        if (mcpMethod != null) {
            request.addHeader("Mcp-Method", mcpMethod);
        }
        return request;
    }
}
