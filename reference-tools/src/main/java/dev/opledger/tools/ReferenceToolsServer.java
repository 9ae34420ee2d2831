package dev.opledger.tools;

import dev.opledger.tools.effect.EffectLog;
import dev.opledger.tools.fault.Faults;
import dev.opledger.tools.mcp.McpEndpoint;
import dev.opledger.tools.task.TaskStore;
import java.net.URI;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A running reference tool server started by {@link ReferenceTools}: where it answers, what it
 * did, and its faults. Closing it stops the server (its database stays).
 */
public final class ReferenceToolsServer implements AutoCloseable {

    private final ConfigurableApplicationContext context;

    ReferenceToolsServer(ConfigurableApplicationContext context) {
        this.context = context;
    }

    /** The port it listens on (the one picked when started with port 0). */
    public int port() {
        return ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    /** The MCP endpoint, e.g. {@code http://127.0.0.1:8091/mcp}, for both protocol revisions. */
    public URI url() {
        return URI.create("http://127.0.0.1:" + port() + McpEndpoint.ENDPOINT);
    }

    /** The effect log: one row per real effect. */
    public EffectLog effects() {
        return context.getBean(EffectLog.class);
    }

    /** The task tools' tasks (one row per call of a task tool that reached the server). */
    public TaskStore tasks() {
        return context.getBean(TaskStore.class);
    }

    /** Standing faults, to change while it runs ({@link Faults#inject}, {@link Faults#clear}). */
    public Faults faults() {
        return context.getBean(Faults.class);
    }

    @Override
    public void close() {
        context.close();
    }
}
