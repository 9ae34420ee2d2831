package dev.opledger.classification.internal;

import dev.opledger.classification.ClassificationService;
import dev.opledger.classification.ToolClassesProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Discovers every configured server once the node has started ({@code opledger.tools.discover-at-start}),
 * in the background: a server that is slow or down must not hold the node's start, and a tool
 * called before its server was discovered is classified from its hints as before.
 */
@Component
class DiscoveryAtStart {

    private static final Logger log = LoggerFactory.getLogger(DiscoveryAtStart.class);

    private final ClassificationService classification;
    private final ToolClassesProperties properties;

    DiscoveryAtStart(ClassificationService classification, ToolClassesProperties properties) {
        this.classification = classification;
        this.properties = properties;
    }

    @EventListener(ApplicationReadyEvent.class)
    void discover() {
        if (!properties.discoverAtStart()) {
            return;
        }
        Thread.ofVirtual().name("tool-discovery").start(() -> {
            try {
                classification.discoverAll();
            } catch (RuntimeException e) {
                log.warn("discovery of the configured MCP servers failed", e);
            }
        });
    }
}
