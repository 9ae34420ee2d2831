package dev.opledger.mcp.internal;

import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.client.McpResponseLostException;
import io.modelcontextprotocol.modern.client.McpTimeoutException;
import io.modelcontextprotocol.modern.client.transport.McpHttpStatusException;
import java.time.Duration;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a connection in the configured revision, or, for {@code auto}, finds the revision: probe
 * with {@code server/discover}; a server that answers speaks 2026-07-28; one that answers with an
 * error other than "unsupported version" (-32022), with HTTP 400/404/405, or — over stdio — not at
 * all or by exiting, speaks an older revision, and gets {@code initialize} (a stdio server in a
 * fresh process, as its state after the unknown probe is undefined). Anything else (no connection,
 * HTTP 401/403/5xx, an unsupported modern version) decides nothing: the failure is thrown and the
 * next call probes again.
 */
final class Connector {

    private static final Logger log = LoggerFactory.getLogger(Connector.class);

    /** Some servers never answer an unknown method; past this the probe counts as "not modern". */
    static final Duration MAX_PROBE_TIME = Duration.ofSeconds(10);
    private static final Duration MAX_CONNECT_TIME = Duration.ofSeconds(10);
    private static final Set<Integer> LEGACY_HTTP_STATUSES = Set.of(400, 404, 405);
    private static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

    private Connector() {
    }

    static McpConnection open(String name, McpProperties.Server server, McpProtocol protocol) {
        return switch (protocol) {
            case MODERN -> ModernConnection.open(name, server);
            case CLASSIC -> ClassicConnection.open(name, server);
            case AUTO -> probe(name, server);
        };
    }

    static Duration connectTimeout(McpProperties.Server server) {
        return server.timeout().compareTo(MAX_CONNECT_TIME) < 0 ? server.timeout() : MAX_CONNECT_TIME;
    }

    private static McpConnection probe(String name, McpProperties.Server server) {
        Duration probeTime = server.timeout().compareTo(MAX_PROBE_TIME) < 0 ? server.timeout() : MAX_PROBE_TIME;
        ModernConnection modern = ModernConnection.open(name, server);
        try {
            modern.discover(probeTime);
            log.debug("MCP server {} answered server/discover: 2026-07-28", name);
            return modern;
        } catch (RuntimeException e) {
            modern.close();
            if (!speaksOlderRevision(e, server.isStdio())) {
                throw e;
            }
            log.debug("MCP server {} does not speak 2026-07-28 ({}): initializing with 2025-11-25", name,
                    Failures.reason(e, probeTime));
            return ClassicConnection.open(name, server);
        }
    }

    static boolean speaksOlderRevision(Throwable failure, boolean stdio) {
        if (failure instanceof McpException error) {
            return error.error().code() != UNSUPPORTED_PROTOCOL_VERSION;
        }
        McpHttpStatusException status = Failures.find(failure, McpHttpStatusException.class);
        if (status != null) {
            return LEGACY_HTTP_STATUSES.contains(status.statusCode());
        }
        // over stdio, silence or an exit after the probe are what older servers do
        return stdio && (Failures.find(failure, McpTimeoutException.class) != null
                || Failures.find(failure, McpResponseLostException.class) != null);
    }
}
