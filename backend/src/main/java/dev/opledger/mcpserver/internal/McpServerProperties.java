package dev.opledger.mcpserver.internal;

import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * {@code opledger.mcp-server.*}: the node's inbound MCP server.
 *
 * @param enabled whether the node serves MCP at {@code /mcp}
 * @param requiredScope a scope the bearer token must carry (in {@code scope} or {@code scp}) to use
 *     MCP at all; blank: every subject with a valid token may, as over REST (read by api's security
 *     configuration)
 * @param allowedHosts the {@code Host} headers accepted (DNS-rebinding protection); {@code host:*}
 *     allows any port
 * @param allowedOrigins the {@code Origin} headers accepted when one is sent (browsers send it;
 *     agents usually do not)
 * @param pollInterval the {@code pollIntervalMs} a task suggests
 * @param maxRequestSize the largest JSON-RPC message accepted; a larger one gets HTTP 413 and is not read
 */
@ConfigurationProperties("opledger.mcp-server")
public record McpServerProperties(
        @DefaultValue("true") boolean enabled,
        @Nullable String requiredScope,
        @DefaultValue({"localhost:*", "127.0.0.1:*", "[::1]:*"}) List<String> allowedHosts,
        @DefaultValue({"http://localhost:*", "http://127.0.0.1:*"}) List<String> allowedOrigins,
        @DefaultValue("1s") Duration pollInterval,
        @DefaultValue("64KB") DataSize maxRequestSize) {

    public McpServerProperties {
        if (maxRequestSize.toBytes() < 1 || maxRequestSize.toBytes() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("opledger.mcp-server.max-request-size must be between 1 byte and 2 GB");
        }
        allowedHosts = List.copyOf(allowedHosts);
        allowedOrigins = List.copyOf(allowedOrigins);
    }
}
