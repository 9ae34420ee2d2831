package dev.opledger.effect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.classification.ClassificationService;
import dev.opledger.claim.ClaimService;
import dev.opledger.claim.LifecycleService;
import dev.opledger.effect.internal.CrashPoint;
import dev.opledger.effect.internal.EffectRecords;
import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolRef;
import dev.opledger.operation.Fence;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.Operations;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;

/**
 * The gateway's repeat rules, one per repeat class, with tools that deduplicate (or not) as the
 * reference tools do, and the records on real PostgreSQL.
 */
@NodeIntegrationTest
@TestPropertySource(properties = {
    "opledger.tools.classes.shop.reserve_inventory.repeat-class=keyed",
    "opledger.tools.classes.shop.adjust_points.repeat-class=check_then_write",
    "opledger.tools.classes.shop.adjust_points.check-tool=get_points"})
class EffectGatewayIT {

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
    JdbcTemplate jdbc;

    FakeTools tools;
    EffectGateway gateway;
    long ref;
    OperationId operationId;
    Fence fence;

    @BeforeEach
    void setUp() {
        tools = new FakeTools();
        tools.hints.put("set_shipping_address", new ToolHints(false, true, false, false));
        tools.hints.put("send_message", new ToolHints(false, false, false, true));
        gateway = new EffectGateway(records, classification, () -> tools,
                new EffectProperties(3, Duration.ofMillis(1)), noCrash);
        var subject = new SubjectId("effects-" + UUID.randomUUID());
        operationId = Operations.claim(claims, subject, 1).getFirst();
        ref = jdbc.queryForObject("SELECT id FROM operation WHERE subject_id = ? AND operation_id = ?", Long.class,
                subject.value(), operationId.value());
        fence = Operations.lease(lifecycle, "effects-node", operationId).fence();
    }

    private Effect effect(String tool, String step) {
        return new Effect(fence, step, new ToolRef("shop", tool), Map.of("sku", "A-1"), null);
    }

    private String recordStatus(String step) {
        return jdbc.queryForObject("SELECT status FROM effect_record WHERE operation_ref = ? AND step_key = ?", String.class,
                ref, step);
    }

    @Test
    void aRecordedSuccessIsServedWithoutACall() {
        var first = gateway.perform(effect("reserve_inventory", "reserve"));
        var again = gateway.perform(effect("reserve_inventory", "reserve"));

        assertThat(first).isInstanceOf(EffectOutcome.Done.class);
        assertThat(again).isEqualTo(new EffectOutcome.Done(((EffectOutcome.Done) first).result(), true));
        assertThat(tools.effectsOf("reserve")).isEqualTo(1);
        assertThat(recordStatus("reserve")).isEqualTo("SUCCEEDED");
    }

    @Test
    void aKeyedToolIsCalledAgainWithTheSameKeyAfterALostResponse() {
        tools.loseNextResponses = 1;

        var outcome = gateway.perform(effect("reserve_inventory", "reserve"));

        assertThat(outcome).isInstanceOf(EffectOutcome.Done.class);
        assertThat(tools.effectsOf("reserve")).isEqualTo(1);
        assertThat(tools.effects.getFirst()).containsEntry("idempotencyKey", operationId + ":reserve")
                .containsEntry("operationId", operationId.toString()).containsEntry("stepKey", "reserve");
        assertThat(jdbc.queryForObject("SELECT calls FROM effect_record WHERE operation_ref = ? AND step_key = 'reserve'",
                Integer.class, ref)).isEqualTo(2);
    }

    @Test
    void anIdempotentToolIsCalledAgainAfterALostResponse() {
        tools.loseNextResponses = 1;

        var outcome = gateway.perform(effect("set_shipping_address", "ship-to"));

        assertThat(outcome).isInstanceOf(EffectOutcome.Done.class);
        assertThat(classification.classOf(new ToolRef("shop", "set_shipping_address"), Optional::empty).repeatClass())
                .isEqualTo(dev.opledger.classification.RepeatClass.IDEMPOTENT);
    }

    @Test
    void aNeverRepeatToolIsNotCalledAgainAfterALostResponse() {
        tools.loseNextResponses = 1;

        var outcome = gateway.perform(effect("send_message", "receipt"));
        var resumed = gateway.perform(effect("send_message", "receipt"));

        assertThat(outcome).isInstanceOf(EffectOutcome.NeedsReview.class);
        assertThat(resumed).isInstanceOf(EffectOutcome.NeedsReview.class);
        assertThat(((EffectOutcome.NeedsReview) resumed).reason()).contains("outcome is unknown");
        assertThat(tools.effectsOf("receipt")).isEqualTo(1);
        assertThat(recordStatus("receipt")).isEqualTo("STARTED");
    }

    @Test
    void aCheckThenWriteToolIsCheckedAndNotWrittenWhenTheEffectLanded() {
        tools.loseNextResponses = 1;
        var checks = new java.util.concurrent.atomic.AtomicInteger();
        EffectCheck check = () -> {
            checks.incrementAndGet();
            return tools.effectsOf("points") > 0 ? Optional.of(Map.of("applied", true)) : Optional.empty();
        };

        var outcome = gateway.perform(new Effect(fence, "points", new ToolRef("shop", "adjust_points"),
                Map.of("delta", 10), check));

        assertThat(outcome).isEqualTo(new EffectOutcome.Done(Map.of("applied", true), true));
        assertThat(tools.effectsOf("points")).isEqualTo(1);
        assertThat(checks).hasValue(1);
    }

    @Test
    void aToolsOwnRefusalIsRecordedAsFailed() {
        tools.refuse = true;

        var outcome = gateway.perform(effect("reserve_inventory", "reserve"));

        assertThat(outcome).isEqualTo(new EffectOutcome.Refused("insufficient stock"));
        assertThat(recordStatus("reserve")).isEqualTo("FAILED");
    }

    @Test
    void anUnreachableToolEndsInReviewAfterTheLastRetry() {
        tools.unreachableNextCalls = 5;

        var outcome = gateway.perform(effect("reserve_inventory", "reserve"));

        assertThat(outcome).isInstanceOf(EffectOutcome.NeedsReview.class);
        assertThat(tools.effectsOf("reserve")).isZero();
    }

    @Test
    void aServerThatRefusesConnectionsIsWaitedForAndANeverRepeatToolIsCalledOnceWhenItAnswers() {
        // the call and the first listing refused (nothing sent), the second listing answered
        tools.refusedNextConnections = 2;

        var outcome = gateway.perform(effect("send_message", "receipt"));

        assertThat(outcome).as("no review: the refused connection was no call").isInstanceOf(EffectOutcome.Done.class);
        assertThat(tools.effectsOf("receipt")).isEqualTo(1);
        assertThat(tools.listings).isEqualTo(2);
        assertThat(recordStatus("receipt")).isEqualTo("SUCCEEDED");
    }

    @Test
    void aServerRefusingConnectionsLongerThanTheWaitEndsInReviewWithNothingCalled() {
        var waitingBriefly = new EffectGateway(records, classification, () -> tools, new EffectProperties(3,
                Duration.ofMillis(1), Duration.ofSeconds(1), Duration.ofMinutes(1), Duration.ofMillis(1500)), noCrash);
        tools.refusedNextConnections = 1_000;

        var outcome = waitingBriefly.perform(effect("send_message", "receipt"));

        assertThat(outcome).isInstanceOf(EffectOutcome.NeedsReview.class);
        assertThat(((EffectOutcome.NeedsReview) outcome).reason()).contains("could not be reached")
                .contains("nothing was sent");
        assertThat(tools.effectsOf("receipt")).isZero();
    }

    @Test
    void aToolWithoutAnnotationsOrConfigurationIsNeverRepeated() {
        var toolClass = classification.classOf(new ToolRef("unknown-server", "mystery"), Optional::empty);

        assertThat(toolClass.repeatClass()).isEqualTo(dev.opledger.classification.RepeatClass.NEVER_REPEAT);
        assertThat(toolClass.reason()).contains("no annotations");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM tool_classification WHERE server = 'unknown-server'",
                Long.class)).as("a guess is not recorded: the server may only be unreachable now").isZero();
    }
}
