package dev.opledger.mcp.internal;

import dev.opledger.mcp.ListedTool;
import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolTransportException;
import dev.opledger.mcp.ToolUnreachableException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One configured server: its connection, opened on first use and shared by every thread; the
 * revision it speaks, remembered once known; and its tools' hints. A stdio connection that failed
 * is replaced on the next call (its process may be gone or wedged); an HTTP one is kept, since the
 * SDK re-establishes what it needs.
 */
final class ConfiguredServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ConfiguredServer.class);

    private final String name;
    private final McpProperties.Server settings;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile @Nullable McpConnection connection;
    private volatile @Nullable McpProtocol protocol;
    private volatile Map<String, ToolHints> hints = Map.of();
    private volatile boolean closed;

    ConfiguredServer(String name, McpProperties.Server settings) {
        this.name = name;
        this.settings = settings;
    }

    String name() {
        return name;
    }

    McpProperties.Server settings() {
        return settings;
    }

    /** The revision spoken: the configured one, or for {@code auto} the one found when the server was first reached. */
    Optional<McpProtocol> protocol() {
        McpProtocol found = protocol;
        if (found != null) {
            return Optional.of(found);
        }
        return settings.protocol() == McpProtocol.AUTO ? Optional.empty() : Optional.of(settings.protocol());
    }

    McpConnection connection() throws ToolTransportException {
        McpConnection current = connection;
        if (current != null) {
            return current;
        }
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("the MCP client is closed");
            }
            if (connection == null) {
                McpProtocol wanted = protocol != null ? protocol : settings.protocol();
                McpConnection opened;
                try {
                    opened = Connector.open(name, settings, wanted);
                } catch (RuntimeException e) {
                    String message = "MCP server " + name + " at " + settings.location() + " cannot be reached ("
                            + Failures.reason(e, settings.timeout()) + ")";
                    throw Failures.unreachable(e) ? new ToolUnreachableException(message + "; nothing was sent", e)
                            : new ToolTransportException(message, e);
                }
                if (protocol == null) {
                    log.info("MCP server {} at {} speaks {}{}", name, settings.location(), opened.protocol(),
                            wanted == McpProtocol.AUTO ? " (found by probing)" : "");
                }
                protocol = opened.protocol();
                connection = opened;
            }
            return connection;
        } finally {
            lock.unlock();
        }
    }

    /** After a failure whose outcome is unknown: a stdio connection is closed and replaced on the next call. */
    void failed(McpConnection failed) {
        if (!settings.isStdio()) {
            return;
        }
        lock.lock();
        try {
            if (connection != failed) {
                return;
            }
            connection = null;
        } finally {
            lock.unlock();
        }
        log.info("MCP server {}: restarting its process on the next call after a failure", name);
        failed.close();
    }

    /** Every tool the server lists now; the hints' cache is refreshed with them. */
    List<ListedTool> list() throws ToolTransportException {
        McpConnection current = connection();
        try {
            List<ListedTool> listed = List.copyOf(current.listTools());
            Map<String, ToolHints> fresh = new LinkedHashMap<>();
            listed.forEach(tool -> fresh.put(tool.name(), tool.hints()));
            hints = Map.copyOf(fresh);
            return listed;
        } catch (RuntimeException e) {
            log.debug("listing the tools of {} failed", name, e);
            failed(current);
            throw new ToolTransportException("cannot list the tools of MCP server " + name + " at " + settings.location()
                    + " (" + Failures.reason(e, settings.timeout()) + ")", e);
        }
    }

    /** The tool's hints from the cached listing, listing the tools again when the tool is not in it. */
    Optional<ToolHints> hints(String tool) {
        ToolHints known = hints.get(tool);
        if (known != null) {
            return Optional.of(known);
        }
        McpConnection current = null;
        try {
            current = connection();
            hints = Map.copyOf(current.tools());
        } catch (ToolTransportException e) {
            log.warn("cannot list the tools of MCP server {}: {}", name, e.getMessage());
            return Optional.empty();
        } catch (RuntimeException e) {
            log.warn("cannot list the tools of MCP server {}: {}", name, Failures.reason(e, settings.timeout()));
            log.debug("listing the tools of {} failed", name, e);
            if (current != null) {
                failed(current);
            }
            return Optional.empty();
        }
        return Optional.ofNullable(hints.get(tool));
    }

    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            McpConnection current = connection;
            connection = null;
            if (current != null) {
                current.close();
            }
        } finally {
            lock.unlock();
        }
    }
}
