package dev.opledger.mcp.internal;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The MCP servers whose tools the node calls, by the name a {@link dev.opledger.mcp.ToolRef}
 * uses: {@code opledger.mcp.servers.<name>.*}.
 */
@ConfigurationProperties("opledger.mcp")
public record McpProperties(@DefaultValue Map<String, Server> servers) {

    public McpProperties {
        servers = Map.copyOf(servers);
    }

    /**
     * One server: reached over streamable HTTP ({@code url}) or started as a process speaking stdio
     * ({@code command} and {@code args}), never both.
     *
     * @param url the streamable HTTP endpoint, e.g. {@code http://127.0.0.1:8091/mcp}
     * @param command the program of a stdio server, e.g. {@code npx}
     * @param args its arguments
     * @param protocol {@code auto} (probe the 2026-07-28 revision, fall back to 2025-11-25), or one of the two
     * @param timeout how long one call may take before its outcome counts as unknown
     * @param headers extra HTTP headers sent with every request (HTTP only)
     */
    public record Server(@Nullable URI url, @Nullable String command, @DefaultValue List<String> args,
            @DefaultValue("auto") McpProtocol protocol, @DefaultValue("30s") Duration timeout,
            @DefaultValue Map<String, String> headers) {

        public Server {
            args = List.copyOf(args);
            headers = Map.copyOf(headers);
            if ((url == null) == (command == null || command.isBlank())) {
                throw new IllegalArgumentException("an MCP server needs either a url (streamable HTTP) or a command "
                        + "(stdio), not both and not neither");
            }
            if (url != null && !url.isAbsolute()) {
                throw new IllegalArgumentException("the url of an MCP server must be absolute, e.g. http://host:port/mcp");
            }
            if (url == null && !headers.isEmpty()) {
                throw new IllegalArgumentException("headers apply to HTTP servers only (url), not to a command");
            }
            if (url != null && !args.isEmpty()) {
                throw new IllegalArgumentException("args apply to a command only, not to a url");
            }
            if (!timeout.isPositive()) {
                throw new IllegalArgumentException("the timeout of an MCP server must be positive");
            }
        }

        /** An HTTP server. */
        public static Server http(URI url, McpProtocol protocol, Duration timeout, Map<String, String> headers) {
            return new Server(url, null, List.of(), protocol, timeout, headers);
        }

        /** A server started as a process. */
        public static Server stdio(String command, List<String> args, McpProtocol protocol, Duration timeout) {
            return new Server(null, command, args, protocol, timeout, Map.of());
        }

        boolean isStdio() {
            return url == null;
        }

        /**
         * Where it is, for logs and messages: the URL without user info or query (either may
         * carry a credential), or the command line.
         */
        String location() {
            if (url != null) {
                return url.getScheme() + "://" + url.getHost() + (url.getPort() == -1 ? "" : ":" + url.getPort())
                        + (url.getRawPath() == null ? "" : url.getRawPath());
            }
            return command + (args.isEmpty() ? "" : " " + String.join(" ", args));
        }
    }
}
