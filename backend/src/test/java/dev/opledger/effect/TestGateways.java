package dev.opledger.effect;

import dev.opledger.classification.ClassificationService;
import dev.opledger.effect.internal.CrashPoint;
import dev.opledger.effect.internal.EffectRecords;
import dev.opledger.mcp.ToolClient;
import java.time.Duration;
import org.springframework.context.ApplicationContext;

/** The node's effect gateway, records and classification over tools a test provides instead of MCP servers. */
public final class TestGateways {

    private TestGateways() {
    }

    public static EffectGateway over(ApplicationContext node, ToolClient tools) {
        return new EffectGateway(node.getBean(EffectRecords.class), node.getBean(ClassificationService.class),
                () -> tools, new EffectProperties(3, Duration.ofMillis(1)), node.getBean(CrashPoint.class));
    }

    /** As {@link #over}, holding a success inside a worker's run for the step's checkpoint, as the node's gateway does. */
    public static EffectGateway holding(ApplicationContext node, ToolClient tools) {
        return new EffectGateway(node.getBean(EffectRecords.class), node.getBean(ClassificationService.class),
                () -> tools, new EffectProperties(3, Duration.ofMillis(1)), node.getBean(CrashPoint.class),
                new dev.opledger.effect.internal.EffectMeters(new io.micrometer.core.instrument.simple.SimpleMeterRegistry()),
                node.getBean(RunWrites.class));
    }
}
