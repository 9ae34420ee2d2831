package dev.opledger.effect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.claim.ClaimService;
import dev.opledger.claim.LifecycleService;
import dev.opledger.classification.ClassificationService;
import dev.opledger.effect.internal.CrashPoint;
import dev.opledger.effect.internal.EffectMeters;
import dev.opledger.effect.internal.EffectRecords;
import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolRef;
import dev.opledger.operation.Fence;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.Operations;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * {@code opledger.effects{server, tool, class, outcome}} and the gateway's fencing refusals, as
 * the node's registry (what {@code /actuator/prometheus} serves) counts them: each outcome made
 * to happen through a gateway with the node's own {@link EffectMeters}.
 */
@NodeIntegrationTest
@TestPropertySource(properties = {
    "opledger.tools.classes.shop.reserve_inventory.repeat-class=keyed",
    "opledger.tools.classes.shop.adjust_points.repeat-class=check_then_write",
    "opledger.tools.classes.shop.adjust_points.check-tool=get_points"})
class EffectMetersIT {

    @Autowired
    EffectRecords records;

    @Autowired
    ClassificationService classification;

    @Autowired
    ClaimService claims;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    CrashPoint noCrash;

    @Autowired
    EffectMeters meters;

    @Autowired
    MeterRegistry registry;

    FakeTools tools;
    EffectGateway gateway;
    Fence fence;

    @BeforeEach
    void setUp() {
        tools = new FakeTools();
        tools.hints.put("send_message", new ToolHints(false, false, false, true));
        gateway = new EffectGateway(records, classification, () -> tools, new EffectProperties(3, Duration.ofMillis(1)),
                noCrash, meters);
        var operationId = Operations.claim(claims, new SubjectId("effect-meters-" + UUID.randomUUID()), 1).getFirst();
        fence = Operations.lease(lifecycle, "effect-meters-node", operationId).fence();
    }

    private EffectOutcome perform(String tool, String step) {
        return gateway.perform(new Effect(fence, step, new ToolRef("shop", tool), Map.of("sku", "A-1"), null));
    }

    private double effects(String tool, String repeatClass, String outcome) {
        Counter counter = registry.find("opledger.effects").tags("server", "shop", "tool", tool, "class", repeatClass,
                "outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }

    private double fencingRefusals() {
        Counter counter = registry.find("opledger.fencing.refusals").tags("write", "effect").counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void aCallAndItsRecordedRepeatAreCountedByToolClassAndOutcome() {
        double done = effects("reserve_inventory", "KEYED", "done");
        double fromRecord = effects("reserve_inventory", "unclassified", "done-from-record");

        assertThat(perform("reserve_inventory", "reserve")).isInstanceOf(EffectOutcome.Done.class);
        assertThat(perform("reserve_inventory", "reserve")).isInstanceOf(EffectOutcome.Done.class);

        assertThat(effects("reserve_inventory", "KEYED", "done")).isEqualTo(done + 1);
        assertThat(effects("reserve_inventory", "unclassified", "done-from-record")).isEqualTo(fromRecord + 1);
    }

    @Test
    void aRefusalAndAReviewAreCounted() {
        double refused = effects("reserve_inventory", "KEYED", "refused");
        double review = effects("send_message", "NEVER_REPEAT", "needs-review");

        tools.refuse = true;
        assertThat(perform("reserve_inventory", "reserve")).isInstanceOf(EffectOutcome.Refused.class);
        tools.refuse = false;
        tools.loseNextResponses = 1;
        assertThat(perform("send_message", "notify")).isInstanceOf(EffectOutcome.NeedsReview.class);

        assertThat(effects("reserve_inventory", "KEYED", "refused")).isEqualTo(refused + 1);
        assertThat(effects("send_message", "NEVER_REPEAT", "needs-review")).isEqualTo(review + 1);
    }

    @Test
    void anEffectOfALeaseNoLongerHeldIsALeaseLostOutcomeAndAFencingRefusal() {
        double lost = effects("reserve_inventory", "KEYED", "lease-lost");
        double refusals = fencingRefusals();

        assertThat(lifecycle.finishRun(fence, "effect-meters-node", OperationStatus.SUCCEEDED, null)).isTrue();
        assertThat(perform("reserve_inventory", "reserve")).isInstanceOf(EffectOutcome.LeaseLost.class);

        assertThat(effects("reserve_inventory", "KEYED", "lease-lost")).isEqualTo(lost + 1);
        assertThat(fencingRefusals()).isEqualTo(refusals + 1);
        assertThat(tools.effects).as("no call").isEmpty();
    }
}
