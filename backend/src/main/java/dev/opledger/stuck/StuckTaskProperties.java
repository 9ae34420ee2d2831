package dev.opledger.stuck;

import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * When a task counts as stuck ({@code opledger.stuck-tasks}): once it is older than its tool's
 * threshold. The tool of an inbound task is the operation type the agent called (the node's MCP
 * tool); of an outbound one, the downstream tool the effect calls.
 *
 * @param threshold for every tool {@code tools} does not name
 * @param tools thresholds by tool name, e.g. {@code opledger.stuck-tasks.tools.capture_payment=30s}
 */
@ConfigurationProperties("opledger.stuck-tasks")
public record StuckTaskProperties(@DefaultValue("5m") Duration threshold, @DefaultValue Map<String, Duration> tools) {

    public StuckTaskProperties {
        tools = Map.copyOf(tools);
        if (threshold.isNegative()) {
            throw new IllegalArgumentException("opledger.stuck-tasks.threshold must not be negative");
        }
        tools.forEach((tool, after) -> {
            if (after.isNegative()) {
                throw new IllegalArgumentException("opledger.stuck-tasks.tools." + tool + " must not be negative");
            }
        });
    }

    /** The threshold of this tool. */
    public Duration thresholdOf(String tool) {
        return tools.getOrDefault(tool, threshold);
    }

    /** The smallest threshold of any tool: no task younger than this is stuck. */
    public Duration smallest() {
        return tools.values().stream().reduce(threshold, (a, b) -> a.compareTo(b) <= 0 ? a : b);
    }
}
