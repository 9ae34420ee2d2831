package dev.opledger.effect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.classification.ClassificationService;
import dev.opledger.claim.ClaimService;
import dev.opledger.claim.LifecycleService;
import dev.opledger.effect.internal.CrashPoint;
import dev.opledger.effect.internal.EffectRecords;
import dev.opledger.mcp.ToolClient;
import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolRef;
import dev.opledger.mcp.ToolReply;
import dev.opledger.mcp.ToolTransportException;
import dev.opledger.operation.Fence;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.Operations;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;

/**
 * A repeat of a step is compared by its arguments' digest: the same arguments are served from
 * the record; other arguments are a new effect only where the tool's class allows it; a loop's
 * ordinals are separate effects. On real PostgreSQL, with tools that deduplicate as the reference
 * tools do.
 */
@NodeIntegrationTest
// the same classes as EffectGatewayIT, so both run in one context
@TestPropertySource(properties = {
    "opledger.tools.classes.shop.reserve_inventory.repeat-class=keyed",
    "opledger.tools.classes.shop.adjust_points.repeat-class=check_then_write",
    "opledger.tools.classes.shop.adjust_points.check-tool=get_points"})
class EffectArgumentsIT {

    private static final ToolRef RESERVE = new ToolRef("shop", "reserve_inventory");
    private static final ToolRef POINTS = new ToolRef("shop", "adjust_points");
    private static final ToolRef SHIPPING = new ToolRef("shop", "set_shipping_address");
    private static final ToolRef MESSAGE = new ToolRef("shop", "send_message");

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
        gateway = gatewayOver(tools);
        var subject = new SubjectId("effect-arguments-" + UUID.randomUUID());
        operationId = Operations.claim(claims, subject, 1).getFirst();
        ref = jdbc.queryForObject("SELECT id FROM operation WHERE subject_id = ? AND operation_id = ?", Long.class,
                subject.value(), operationId.value());
        fence = Operations.lease(lifecycle, "effects-node", operationId).fence();
    }

    private EffectGateway gatewayOver(ToolClient client) {
        return new EffectGateway(records, classification, () -> client, new EffectProperties(3, Duration.ofMillis(1)),
                noCrash);
    }

    private Effect effect(ToolRef tool, String step, Map<String, Object> arguments) {
        return new Effect(fence, step, tool, arguments, null);
    }

    /** SHA-256 of the canonical JSON, written here by hand: what the record must hold. */
    private static String sha256(String canonicalJson) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(canonicalJson.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private Map<String, Object> record(String step) {
        return jdbc.queryForMap("SELECT status, argument_digest, calls, arguments::text AS arguments, result::text AS result"
                + " FROM effect_record WHERE operation_ref = ? AND step_key = ?", ref, step);
    }

    private long superseded(String step) {
        return jdbc.queryForObject("SELECT count(*) FROM effect_record_superseded WHERE operation_ref = ? AND step_key = ?",
                Long.class, ref, step);
    }

    @Test
    void theSameArgumentsAreServedFromTheRecordWhateverTheirJavaTypesAndOrder() {
        Map<String, Object> first = new LinkedHashMap<>();
        first.put("sku", "A-1");
        first.put("amount", new BigDecimal("49.90"));
        first.put("quantity", 2);
        Map<String, Object> again = new LinkedHashMap<>();
        again.put("quantity", 2L);
        again.put("amount", 49.9);
        again.put("sku", "A-1");

        var done = gateway.perform(effect(MESSAGE, "receipt", first));
        var served = gateway.perform(effect(MESSAGE, "receipt", again));

        assertThat(served).isEqualTo(new EffectOutcome.Done(((EffectOutcome.Done) done).result(), true));
        assertThat(tools.effectsOf("receipt")).isEqualTo(1);
        assertThat(record("receipt")).containsEntry("argument_digest",
                sha256("{\"amount\":49.9,\"quantity\":2,\"sku\":\"A-1\"}"));
    }

    @Test
    void anIdempotentToolAskedWithOtherArgumentsIsCalledAgainAndTheOldRecordIsKept() {
        var first = gateway.perform(effect(SHIPPING, "shipping", Map.of("address", "1 Old Road")));
        var second = gateway.perform(effect(SHIPPING, "shipping", Map.of("address", "2 New Street")));
        var repeated = gateway.perform(effect(SHIPPING, "shipping", Map.of("address", "2 New Street")));

        assertThat(first).isInstanceOf(EffectOutcome.Done.class);
        assertThat(second).isInstanceOfSatisfying(EffectOutcome.Done.class, done -> {
            assertThat(done.fromRecord()).isFalse();
            assertThat(done.result()).containsEntry("effect", 2);
        });
        assertThat(repeated).isEqualTo(new EffectOutcome.Done(((EffectOutcome.Done) second).result(), true));
        assertThat(tools.effects).extracting(call -> call.get("address")).containsExactly("1 Old Road", "2 New Street");
        assertThat(record("shipping")).containsEntry("status", "SUCCEEDED").containsEntry("calls", 1)
                .containsEntry("argument_digest", sha256("{\"address\":\"2 New Street\"}"));
        assertThat(jdbc.queryForMap("SELECT status, argument_digest, superseded_by, arguments->>'address' AS address"
                        + " FROM effect_record_superseded WHERE operation_ref = ? AND step_key = 'shipping'", ref))
                .containsEntry("status", "SUCCEEDED").containsEntry("address", "1 Old Road")
                .containsEntry("argument_digest", sha256("{\"address\":\"1 Old Road\"}"))
                .containsEntry("superseded_by", sha256("{\"address\":\"2 New Street\"}"));
    }

    @Test
    void anIdempotentToolWhoseOutcomeIsUnknownIsCalledWithTheNewArguments() {
        tools.unreachableNextCalls = 3;
        assertThat(gateway.perform(effect(SHIPPING, "shipping", Map.of("address", "1 Old Road"))))
                .isInstanceOf(EffectOutcome.NeedsReview.class);

        var outcome = gateway.perform(effect(SHIPPING, "shipping", Map.of("address", "2 New Street")));

        assertThat(outcome).isInstanceOf(EffectOutcome.Done.class);
        assertThat(tools.effects).extracting(call -> call.get("address")).containsExactly("2 New Street");
        assertThat(record("shipping")).containsEntry("status", "SUCCEEDED").containsEntry("calls", 1);
        assertThat(jdbc.queryForMap("SELECT status, calls FROM effect_record_superseded WHERE operation_ref = ?"
                + " AND step_key = 'shipping'", ref)).containsEntry("status", "STARTED").containsEntry("calls", 3);
    }

    @Test
    void argumentsWithoutACanonicalFormGoToReviewBeforeAnyRecordOrCall() {
        var outcome = gateway.perform(effect(SHIPPING, "shipping", Map.of("weight", new BigDecimal("1e400"))));

        assertThat(outcome).isInstanceOfSatisfying(EffectOutcome.NeedsReview.class,
                review -> assertThat(review.reason()).contains("step shipping", "RFC 8785"));
        assertThat(tools.effects).isEmpty();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM effect_record WHERE operation_ref = ?", Long.class, ref))
                .isZero();
    }

    @Test
    void aKeyedToolAskedWithOtherArgumentsUnderItsKeyGoesToReview() {
        gateway.perform(effect(RESERVE, "reserve", Map.of("sku", "A-1")));

        var outcome = gateway.perform(effect(RESERVE, "reserve", Map.of("sku", "B-2")));

        assertThat(outcome).isInstanceOfSatisfying(EffectOutcome.NeedsReview.class, review -> assertThat(review.reason())
                .contains("step reserve", "reserve_inventory", "KEYED", "recorded SUCCEEDED",
                        "sha256:" + sha256("{\"sku\":\"A-1\"}"), "sha256:" + sha256("{\"sku\":\"B-2\"}"),
                        operationId + ":reserve"));
        assertThat(tools.effects).hasSize(1);
        assertThat(record("reserve")).containsEntry("calls", 1).containsEntry("argument_digest", sha256("{\"sku\":\"A-1\"}"));
        assertThat(superseded("reserve")).isZero();
    }

    @Test
    void aCheckThenWriteToolAskedWithOtherArgumentsIsNeitherCheckedNorWritten() {
        var checks = new AtomicInteger();
        EffectCheck check = () -> {
            checks.incrementAndGet();
            return Optional.of(Map.of("applied", true));
        };
        gateway.perform(new Effect(fence, "points", POINTS, Map.of("delta", 10), check));

        var outcome = gateway.perform(new Effect(fence, "points", POINTS, Map.of("delta", 25), check));

        assertThat(outcome).isInstanceOfSatisfying(EffectOutcome.NeedsReview.class, review -> assertThat(review.reason())
                .contains("step points", "adjust_points", "CHECK_THEN_WRITE", "check"));
        assertThat(tools.effects).extracting(call -> call.get("delta")).containsExactly(10);
        assertThat(checks).hasValue(0);
    }

    @Test
    void aNeverRepeatToolAskedWithOtherArgumentsGoesToReviewNamingStepToolAndBothDigests() {
        gateway.perform(effect(MESSAGE, "receipt", Map.of("text", "paid 10.00")));

        var outcome = gateway.perform(effect(MESSAGE, "receipt", Map.of("text", "paid 12.00")));

        assertThat(outcome).isInstanceOfSatisfying(EffectOutcome.NeedsReview.class, review -> assertThat(review.reason())
                .contains("step receipt", "send_message", "NEVER_REPEAT",
                        "sha256:" + sha256("{\"text\":\"paid 10.00\"}"), "sha256:" + sha256("{\"text\":\"paid 12.00\"}")));
        assertThat(tools.effectsOf("receipt")).isEqualTo(1);
    }

    @Test
    void aNeverRepeatToolWhoseOutcomeIsUnknownGoesToReviewWithOtherArgumentsToo() {
        tools.loseNextResponses = 1;
        gateway.perform(effect(MESSAGE, "receipt", Map.of("text", "paid 10.00")));

        var outcome = gateway.perform(effect(MESSAGE, "receipt", Map.of("text", "paid 12.00")));

        assertThat(outcome).isInstanceOfSatisfying(EffectOutcome.NeedsReview.class,
                review -> assertThat(review.reason()).contains("recorded STARTED", "other arguments"));
        assertThat(tools.effectsOf("receipt")).isEqualTo(1);
        assertThat(record("receipt")).containsEntry("status", "STARTED");
    }

    @Test
    void afterTheToolsRefusalAStepWithOtherArgumentsIsANewEffectForEveryClass() {
        tools.refuse = true;
        assertThat(gateway.perform(effect(MESSAGE, "receipt", Map.of("to", "nobody@invalid"))))
                .isInstanceOf(EffectOutcome.Refused.class);
        assertThat(gateway.perform(effect(RESERVE, "reserve", Map.of("sku", "A-1", "quantity", 99))))
                .isInstanceOf(EffectOutcome.Refused.class);
        tools.refuse = false;

        var receipt = gateway.perform(effect(MESSAGE, "receipt", Map.of("to", "ana@example.org")));
        var reserve = gateway.perform(effect(RESERVE, "reserve", Map.of("sku", "A-1", "quantity", 1)));

        assertThat(receipt).isInstanceOfSatisfying(EffectOutcome.Done.class, done -> assertThat(done.fromRecord()).isFalse());
        assertThat(reserve).isInstanceOfSatisfying(EffectOutcome.Done.class, done -> assertThat(done.fromRecord()).isFalse());
        assertThat(tools.effects).extracting(call -> call.get("stepKey")).containsExactly("receipt", "reserve");
        assertThat(record("receipt")).containsEntry("status", "SUCCEEDED").containsEntry("calls", 1);
        assertThat(superseded("receipt")).isEqualTo(1);
        assertThat(superseded("reserve")).isEqualTo(1);
    }

    @Test
    void aLoopRunsOneToolSeveralTimesEachOrdinalItsOwnEffectOnce() {
        List<EffectOutcome> firstRun = new ArrayList<>();
        for (int n = 1; n <= 3; n++) {
            firstRun.add(gateway.perform(new Effect(fence, StepKey.nth("act", n), MESSAGE, Map.of("text", "same"), null)));
        }
        // a resumed loop: the same ordinals, each served from its own record
        List<EffectOutcome> resumed = new ArrayList<>();
        for (int n = 1; n <= 3; n++) {
            resumed.add(gateway.perform(new Effect(fence, StepKey.nth("act", n), MESSAGE, Map.of("text", "same"), null)));
        }
        var fixed = gateway.perform(new Effect(fence, StepKey.fixed("act"), MESSAGE, Map.of("text", "same"), null));

        assertThat(firstRun).allSatisfy(outcome -> assertThat(outcome)
                .isInstanceOfSatisfying(EffectOutcome.Done.class, done -> assertThat(done.fromRecord()).isFalse()));
        assertThat(resumed).allSatisfy(outcome -> assertThat(outcome)
                .isInstanceOfSatisfying(EffectOutcome.Done.class, done -> assertThat(done.fromRecord()).isTrue()));
        assertThat(resumed).isEqualTo(firstRun.stream()
                .map(outcome -> (EffectOutcome) new EffectOutcome.Done(((EffectOutcome.Done) outcome).result(), true))
                .toList());
        assertThat(fixed).isInstanceOfSatisfying(EffectOutcome.Done.class, done -> assertThat(done.fromRecord()).isFalse());
        assertThat(tools.effects).extracting(call -> call.get("stepKey")).containsExactly("act#1", "act#2", "act#3", "act");
        assertThat(jdbc.queryForList("SELECT step_key FROM effect_record WHERE operation_ref = ? ORDER BY step_key",
                String.class, ref)).containsExactly("act", "act#1", "act#2", "act#3");
    }

    @Test
    void aKeyedToolInALoopGetsOneIdempotencyKeyPerOrdinal() {
        gateway.perform(new Effect(fence, StepKey.nth("reserve-item", 1), RESERVE, Map.of("sku", "A-1"), null));
        gateway.perform(new Effect(fence, StepKey.nth("reserve-item", 2), RESERVE, Map.of("sku", "B-2"), null));

        assertThat(tools.effects).extracting(call -> call.get("idempotencyKey"))
                .containsExactly(operationId + ":reserve-item#1", operationId + ":reserve-item#2");
    }

    @Test
    void concurrentDuplicatesOfOneStepAndOrdinalMakeOneCall() throws Exception {
        var calls = new AtomicInteger();
        ToolClient slow = new ToolClient() {
            @Override
            public ToolReply call(ToolRef tool, Map<String, Object> arguments) throws ToolTransportException {
                calls.incrementAndGet();
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return new ToolReply(false, Map.of("messageId", "m-" + calls.get()), "ok");
            }

            @Override
            public Optional<ToolHints> hints(ToolRef tool) {
                return Optional.of(new ToolHints(false, false, false, true));
            }
        };
        EffectGateway shared = gatewayOver(slow);
        int duplicates = 8;
        var start = new CountDownLatch(1);
        List<EffectOutcome> outcomes;
        try (var pool = Executors.newFixedThreadPool(duplicates)) {
            List<Future<EffectOutcome>> futures = new ArrayList<>();
            for (int i = 0; i < duplicates; i++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    return shared.perform(new Effect(fence, StepKey.nth("notify", 2), MESSAGE, Map.of("text", "hi"), null));
                }));
            }
            start.countDown();
            outcomes = new ArrayList<>();
            for (var future : futures) {
                outcomes.add(future.get(30, TimeUnit.SECONDS));
            }
        }

        assertThat(calls).hasValue(1);
        assertThat(outcomes).allSatisfy(outcome -> assertThat(outcome).isInstanceOfSatisfying(EffectOutcome.Done.class,
                done -> assertThat(done.result()).isEqualTo(Map.of("messageId", "m-1"))));
        assertThat(outcomes).filteredOn(outcome -> !((EffectOutcome.Done) outcome).fromRecord()).hasSize(1);
        assertThat(record("notify#2")).containsEntry("calls", 1).containsEntry("status", "SUCCEEDED");
    }

    @Test
    void aStaleLeasesRepeatWithOtherArgumentsIsRefusedAndCallsNothing() {
        gateway.perform(effect(SHIPPING, "shipping", Map.of("address", "1 Old Road")));
        jdbc.update("UPDATE operation SET lease_expires_at = now() - interval '1 second' WHERE operation_id = ?",
                operationId.value());
        Fence current = Operations.lease(lifecycle, "other-node", operationId).fence();

        var stale = gateway.perform(effect(SHIPPING, "shipping", Map.of("address", "2 New Street")));

        assertThat(current.epoch()).isGreaterThan(fence.epoch());
        assertThat(stale).isInstanceOfSatisfying(EffectOutcome.LeaseLost.class,
                lost -> assertThat(lost.refused()).contains("STARTED", "shipping", fence.toString()));
        assertThat(tools.effects).hasSize(1);
        assertThat(record("shipping")).containsEntry("argument_digest", sha256("{\"address\":\"1 Old Road\"}"))
                .containsEntry("status", "SUCCEEDED");
        assertThat(superseded("shipping")).as("nothing archived by a refused write").isZero();
    }

    @Test
    void aRecordWrittenBeforeDigestsIsComparedByItsStoredArguments() {
        jdbc.update("""
                INSERT INTO effect_record (operation_ref, step_key, server, tool, repeat_class, status, idempotency_key,
                                           arguments, result, calls, finished_at)
                VALUES (?, 'capture', 'shop', 'reserve_inventory', 'KEYED', 'SUCCEEDED', ?, ?::jsonb,
                        '{"paymentId": "p-legacy"}', 1, now())
                """, ref, operationId + ":capture", "{\"amount\": 49.90, \"currency\": \"EUR\", \"operationId\": \""
                + operationId + "\", \"stepKey\": \"capture\", \"idempotencyKey\": \"" + operationId + ":capture\"}");

        var same = gateway.perform(effect(RESERVE, "capture", Map.of("currency", "EUR", "amount", new BigDecimal("49.90"))));
        var other = gateway.perform(effect(RESERVE, "capture", Map.of("currency", "EUR", "amount", new BigDecimal("59.90"))));

        assertThat(same).isEqualTo(new EffectOutcome.Done(Map.of("paymentId", "p-legacy"), true));
        assertThat(other).isInstanceOf(EffectOutcome.NeedsReview.class);
        assertThat(tools.effects).isEmpty();
    }
}
