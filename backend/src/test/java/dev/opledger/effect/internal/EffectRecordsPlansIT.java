package dev.opledger.effect.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.classification.RepeatClass;
import dev.opledger.effect.Effect;
import dev.opledger.effect.internal.EffectRecords.PollRecorded;
import dev.opledger.mcp.ToolRef;
import dev.opledger.operation.Fence;
import dev.opledger.outbox.OutboxTrace;
import dev.opledger.testing.LedgerOfItsOwn;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every write of an effect record finds the record by its primary key however large the ledger
 * has grown since the connection's plans were made (issue 13). PgJDBC prepares a statement once
 * per connection and PostgreSQL keeps the generic plan it settles on until the next ANALYZE; on
 * a database that is never analyzed (this machine's shared cluster runs no autovacuum), a plan
 * made while the ledger was new, joining the fenced operation to the records, read every
 * record on every SUCCEEDED: about 10,900 sequential reads of effect_record in one benchmark run.
 */
class EffectRecordsPlansIT {

    private static final String NODE = "plans-node";
    // PgJDBC prepares a statement on its 5th execution; PostgreSQL settles on a generic plan after 5 more
    private static final int FIRST_OPERATIONS = 12;
    private static final int GROWN_OPERATIONS = 20_000;

    private final JsonMapper json = JsonMapper.builder().build();

    @Test
    void aLedgerGrownWithoutStatisticsIsStillWrittenByItsKeys() throws Exception {
        try (LedgerOfItsOwn ledger = LedgerOfItsOwn.create().migrate().neverAnalyzed()) {
            var records = new EffectRecords(ledger.jdbc(), json, OutboxTrace.none());
            for (Fence fence : ledger.running(NODE, FIRST_OPERATIONS)) {
                steps(records, fence, (name, step) -> step.run());
            }
            ledger.grow(GROWN_OPERATIONS);

            Map<String, Map<String, Long>> reads = new LinkedHashMap<>();
            steps(records, ledger.running(NODE, 1).getFirst(),
                    (name, step) -> reads.put(name, ledger.sequentialReads(step)));

            assertThat(reads).hasSize(11).allSatisfy((name, tables) -> assertThat(tables).as(name)
                    .doesNotContainKeys("effect_record", "operation", "outbox_event"));
        }
    }

    /**
     * A step with a downstream task that succeeds, and a step that fails and is called again,
     * each write through {@code run} (named), each checked for what it wrote.
     */
    private void steps(EffectRecords records, Fence fence, BiConsumer<String, Runnable> run) {
        Map<String, Object> arguments = Map.of("amount", 49.9);
        var capture = new Effect(fence, "capture", new ToolRef("shop", "capture_payment"), arguments, null);
        run.accept("first start", () -> assertThat(records.startFirst(capture, RepeatClass.KEYED,
                capture.idempotencyKey(), arguments, ArgumentDigest.of(json, arguments)).started()).isTrue());
        run.accept("task stored", () -> assertThat(records.storeTask(capture, "task-1", "working", null, null)).isTrue());
        run.accept("task polled", () -> assertThat(records.taskPolled(capture, "working", null, null))
                .isEqualTo(PollRecorded.RECORDED));
        run.accept("downstream cancel", () -> assertThat(records.downstreamCancelSending(capture)).isTrue());
        run.accept("success", () -> assertThat(records.succeed(capture, Map.of("paid", true))).isTrue());

        var receipt = new Effect(fence, "receipt", new ToolRef("shop", "send_message"), arguments, null);
        run.accept("second first start", () -> assertThat(records.startFirst(receipt, RepeatClass.IDEMPOTENT, null,
                arguments, ArgumentDigest.of(json, arguments)).started()).isTrue());
        run.accept("failure", () -> assertThat(records.fail(receipt, "refused")).isTrue());
        run.accept("repeat start", () -> assertThat(records.start(receipt, RepeatClass.IDEMPOTENT, null, arguments)).isTrue());
        run.accept("superseding start", () -> assertThat(records.start(receipt, RepeatClass.IDEMPOTENT, null,
                Map.of("amount", 1), ArgumentDigest.of(json, Map.of("amount", 1)), true)).isTrue());
        run.accept("guard passed", () -> assertThat(records.passGuard(receipt)).isTrue());
        run.accept("second success", () -> assertThat(records.succeed(receipt, Map.of("sent", true))).isTrue());
    }
}
