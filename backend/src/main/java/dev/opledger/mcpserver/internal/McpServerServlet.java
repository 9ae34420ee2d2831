package dev.opledger.mcpserver.internal;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.server.transport.HttpServletMcpTransport;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
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
 *
 * <p>A POST's body is read here first, at most the transport's limit (a larger one is the same
 * 413), and must be UTF-8 (RFC 8259, section 8.1): the transport would decode it with
 * replacement characters and run the call on what it guessed. A byte sequence that is not UTF-8 is
 * a JSON-RPC parse error (-32700, HTTP 400) and nothing runs; the transport reads the checked
 * bytes. A body under a content coding (gzip, …) is not decoded here and is refused with 415.
 */
final class McpServerServlet extends HttpServlet {

    /** JSON-RPC "invalid request": refused by the transport before any method ran. */
    static final int REFUSED_BY_TRANSPORT = -32600;
    /** JSON-RPC "parse error": the body is not a JSON text (here: not UTF-8). */
    static final int PARSE_ERROR = -32700;

    private final transient ObjectProvider<McpServerTransport> transports;
    private final transient McpJsonMapper json;
    private transient volatile @Nullable HttpServletMcpTransport transport;

    private final int maxRequestSize;

    McpServerServlet(ObjectProvider<McpServerTransport> transports, McpJsonMapper json, int maxRequestSize) {
        this.transports = transports;
        this.json = json;
        this.maxRequestSize = maxRequestSize;
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
        if (!"POST".equals(request.getMethod())) {
            current.service(request, refusals);
            return;
        }
        String coding = request.getHeader("Content-Encoding");
        if (coding != null && !coding.isBlank() && !"identity".equalsIgnoreCase(coding.strip())) {
            // RFC 9110, 15.5.16: a content coding this server does not decode; the bytes are not what was sent
            response.setHeader("Accept-Encoding", "identity");
            refusals.refuse(HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE, REFUSED_BY_TRANSPORT,
                    "Unsupported Content-Encoding " + coding.strip() + ": send the JSON-RPC message uncompressed");
            return;
        }
        byte[] body = request.getInputStream().readNBytes(maxRequestSize + 1);
        if (body.length > maxRequestSize) {
            refusals.sendError(HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE);
            return;
        }
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body));
        } catch (CharacterCodingException notUtf8) {
            refusals.refuse(HttpServletResponse.SC_BAD_REQUEST, PARSE_ERROR,
                    "Parse error: the body is not UTF-8 (RFC 8259 requires it); nothing was run");
            return;
        }
        current.service(new CheckedBody(request, body), refusals);
    }

    /** The request with its body already read and checked: the transport reads these bytes. */
    private static final class CheckedBody extends HttpServletRequestWrapper {

        private final byte[] body;

        CheckedBody(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            var in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] buffer, int offset, int length) {
                    return in.read(buffer, offset, length);
                }

                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException("the body is read already");
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            return new BufferedReader(new InputStreamReader(new ByteArrayInputStream(body), StandardCharsets.UTF_8));
        }

        /** UTF-8, whatever charset the Content-Type names: JSON is UTF-8 (the transport decodes with this). */
        @Override
        public String getCharacterEncoding() {
            return StandardCharsets.UTF_8.name();
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }
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
            refuse(status, REFUSED_BY_TRANSPORT, message(status, reason));
        }

        void refuse(int status, int code, String message) throws IOException {
            resetBuffer();
            setStatus(status);
            setContentType("application/json");
            setCharacterEncoding(StandardCharsets.UTF_8);
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("code", code);
            error.put("message", message);
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
