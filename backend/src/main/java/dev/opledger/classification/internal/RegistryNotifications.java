package dev.opledger.classification.internal;

import dev.opledger.mcp.ToolRef;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Listens on {@value #CHANNEL} (PostgreSQL LISTEN/NOTIFY, on one connection of the pool kept for
 * it) and drops each notified tool from the {@link ToolClassCache}. PostgreSQL delivers a
 * notification to every listening session when the writing transaction commits, so a change made
 * on any node reaches every node's cache within the wait below. When the connection fails, the
 * cache is distrusted (a notification may be lost) until listening again.
 */
@Component
public class RegistryNotifications implements SmartLifecycle {

    public static final String CHANNEL = "opledger_tool_registry";
    private static final Logger log = LoggerFactory.getLogger(RegistryNotifications.class);
    /** How long one wait for notifications lasts; it ends early when one arrives. */
    private static final int WAIT_MILLIS = 250;
    private static final Duration RETRY = Duration.ofSeconds(1);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final DataSource dataSource;
    private final ToolClassCache cache;
    private volatile boolean running;
    private volatile Thread thread;

    public RegistryNotifications(DataSource dataSource, ToolClassCache cache) {
        this.dataSource = dataSource;
        this.cache = cache;
    }

    static String payload(String server, String tool) {
        return JSON.writeValueAsString(Map.of("server", server, "tool", tool));
    }

    @Override
    public void start() {
        running = true;
        thread = Thread.ofPlatform().daemon().name("tool-registry-listener").start(this::listen);
    }

    @Override
    public void stop() {
        running = false;
        Thread listening = thread;
        if (listening != null) {
            listening.interrupt();
            try {
                listening.join(Duration.ofSeconds(2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        cache.trust(false);
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Whether the cache is in use: the listener is connected. */
    public boolean listening() {
        return cache.trusted();
    }

    private void listen() {
        while (running) {
            try (Connection connection = dataSource.getConnection()) {
                connection.setAutoCommit(true);
                try (Statement listen = connection.createStatement()) {
                    listen.execute("LISTEN " + CHANNEL);
                }
                PGConnection notifications = connection.unwrap(PGConnection.class);
                cache.trust(true);
                log.debug("listening on {}: tool classes are cached", CHANNEL);
                while (running) {
                    PGNotification[] received = notifications.getNotifications(WAIT_MILLIS);
                    if (received != null) {
                        for (PGNotification notification : received) {
                            drop(notification.getParameter());
                        }
                    }
                }
            } catch (SQLException | RuntimeException e) {
                cache.trust(false);
                if (running) {
                    log.warn("listening on {} failed ({}): tool classes are read from the database until it is back",
                            CHANNEL, e.getMessage());
                    try {
                        Thread.sleep(RETRY);
                    } catch (InterruptedException interrupted) {
                        return;
                    }
                }
            }
        }
    }

    private void drop(String payload) {
        try {
            var tool = JSON.readTree(payload);
            cache.drop(new ToolRef(tool.get("server").asString(), tool.get("tool").asString()));
        } catch (RuntimeException e) {
            log.warn("unreadable notification on {}: {}; dropping every cached class", CHANNEL, payload);
            cache.dropAll();
        }
    }
}
