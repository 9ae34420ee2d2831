package dev.opledger.effect.internal;

import dev.opledger.classification.RepeatClass;
import dev.opledger.effect.EffectOutcome;
import dev.opledger.mcp.ToolRef;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * {@code opledger.effects{server, tool, class, outcome}}: what each effect the gateway performed
 * came to, counted in memory where the gateway returns it. The tags are bounded: a tool is one of
 * the tools the node's operation types call (and the registry classifies), a class a
 * {@link RepeatClass} ({@code unclassified} for an outcome decided before the class was looked up,
 * such as a success served from its record), an outcome one of a fixed set; never an operationId.
 * A refused effect record ({@code lease-lost}) is a fencing refusal too:
 * {@code opledger.fencing.refusals{write="effect"}}.
 */
@Component
public class EffectMeters {

    private final MeterRegistry registry;

    public EffectMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    public void count(ToolRef tool, @Nullable RepeatClass repeatClass, EffectOutcome outcome) {
        Counter.builder("opledger.effects")
                .description("Effects performed through the effect gateway, by tool, repeat class and outcome")
                .tag("server", tool.server())
                .tag("tool", tool.tool())
                .tag("class", repeatClass == null ? "unclassified" : repeatClass.name())
                .tag("outcome", outcome(outcome))
                .register(registry)
                .increment();
        if (outcome instanceof EffectOutcome.LeaseLost) {
            Counter.builder("opledger.fencing.refusals")
                    .description("Writes the database refused because the lease epoch was no longer the writer's")
                    .tag("write", "effect")
                    .register(registry)
                    .increment();
        }
    }

    static String outcome(EffectOutcome outcome) {
        return switch (outcome) {
            case EffectOutcome.Done done -> done.fromRecord() ? "done-from-record" : "done";
            case EffectOutcome.Refused refused -> "refused";
            case EffectOutcome.GivenUp givenUp -> "given-up";
            case EffectOutcome.NeedsReview review -> "needs-review";
            case EffectOutcome.LeaseLost lost -> "lease-lost";
            case EffectOutcome.CancelRequested cancel -> "cancel-requested";
        };
    }
}
