package dev.opledger.classification.internal;

import dev.opledger.mcp.ToolRef;
import dev.opledger.notification.NotificationSubscriber;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Receives {@value #CHANNEL} (through the node's {@link dev.opledger.notification.DatabaseNotifications})
 * and drops each notified tool from the {@link ToolClassCache}. PostgreSQL delivers a notification
 * to every listening session when the writing transaction commits, so a change made on any node
 * reaches every node's cache at once. While the node does not listen, the cache is distrusted (a
 * notification may be lost) until it listens again.
 */
@Component
public class RegistryNotifications implements NotificationSubscriber {

    public static final String CHANNEL = "opledger_tool_registry";
    private static final Logger log = LoggerFactory.getLogger(RegistryNotifications.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ToolClassCache cache;

    public RegistryNotifications(ToolClassCache cache) {
        this.cache = cache;
    }

    static String payload(String server, String tool) {
        return JSON.writeValueAsString(Map.of("server", server, "tool", tool));
    }

    @Override
    public Set<String> channels() {
        return Set.of(CHANNEL);
    }

    @Override
    public void received(String channel, String payload) {
        try {
            var tool = JSON.readTree(payload);
            cache.drop(new ToolRef(tool.get("server").asString(), tool.get("tool").asString()));
        } catch (RuntimeException e) {
            log.warn("unreadable notification on {}: {}; dropping every cached class", CHANNEL, payload);
            cache.dropAll();
        }
    }

    @Override
    public void listening(boolean listening) {
        cache.trust(listening);
        log.debug(listening ? "listening on {}: tool classes are cached"
                : "not listening on {}: tool classes are read from the database until it is back", CHANNEL);
    }

    /** Whether the cache is in use: the node listens. */
    public boolean listening() {
        return cache.trusted();
    }
}
