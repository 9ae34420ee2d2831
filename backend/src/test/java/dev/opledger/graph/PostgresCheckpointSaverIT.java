package dev.opledger.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.operation.OperationId;
import dev.opledger.testing.NodeIntegrationTest;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.checkpoint.Checkpoint;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/** The saver's contract with langgraph4j, call by call, on the real table. */
@NodeIntegrationTest
class PostgresCheckpointSaverIT {

    @Autowired
    DataSource dataSource;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void putThenGetByIdLatestAndListNewestFirstRoundTripTheState() {
        var saver = new PostgresCheckpointSaver(dataSource);
        var config = config(OperationId.random());
        Map<String, Object> nested = new LinkedHashMap<>();
        nested.put("name", "Zoë 🚀 日本語 — \"quoted\" \\ back\nslash");
        nested.put("amount", new BigDecimal("1234.50"));
        nested.put("big", 9_007_199_254_740_993L);
        nested.put("flags", List.of(true, false));
        nested.put("lines", List.of(Map.of("sku", "Ä-1", "units", 2), Map.of("sku", "Ω-2", "units", 1)));
        nested.put("none", null);
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("order", nested);
        state.put("count", 3);
        state.put("empty", Map.of());

        var first = checkpoint("__START__", "reserve", Map.of("step", 1));
        var second = checkpoint("reserve", "capture", state);
        var third = checkpoint("capture", "receipt", Map.of("step", 3));
        assertThat(saver.get(config)).isEmpty();
        RunnableConfig returned = saver.put(config, first);
        saver.put(config, second);
        saver.put(config, third);

        assertThat(returned.checkPointId()).contains(first.getId());
        Checkpoint read = saver.get(config.withCheckPointId(second.getId())).orElseThrow();
        assertThat(read.getState()).isEqualTo(state);
        assertThat(read.getNodeId()).isEqualTo("reserve");
        assertThat(read.getNextNodeId()).isEqualTo("capture");
        assertThat(saver.get(config).orElseThrow().getId()).isEqualTo(third.getId());
        assertThat(saver.list(config)).extracting(Checkpoint::getId)
                .containsExactly(third.getId(), second.getId(), first.getId());
        assertThat(saver.get(config.withCheckPointId(UUID.randomUUID().toString()))).isEmpty();
    }

    @Test
    void aNewSaverReadsWhatAnotherOneWrote() {
        var config = config(OperationId.random());
        var written = checkpoint("reserve", "capture", Map.of("text", "ünïcødé ✓"));
        new PostgresCheckpointSaver(dataSource).put(config, written);

        Checkpoint read = new PostgresCheckpointSaver(dataSource).get(config).orElseThrow();

        assertThat(read.getId()).isEqualTo(written.getId());
        assertThat(read.getState()).isEqualTo(Map.of("text", "ünïcødé ✓"));
    }

    @Test
    void aPutNamingACheckpointAppendsInsteadOfReplacingIt() {
        var saver = new PostgresCheckpointSaver(dataSource);
        var operation = OperationId.random();
        var config = config(operation);
        var first = checkpoint("__START__", "reserve", Map.of("v", 1));
        var second = checkpoint("reserve", "capture", Map.of("v", 2));
        saver.put(config, first);
        saver.put(config, second);
        var named = config.withCheckPointId(first.getId());
        saver.get(named);

        var update = Checkpoint.copyOf(first);
        saver.put(named, update);

        assertThat(saver.list(config)).extracting(Checkpoint::getId)
                .containsExactly(update.getId(), second.getId(), first.getId());
        assertThat(parents(operation).getFirst()).isEqualTo(first.getId());
    }

    @Test
    void releaseHandsBackTheRunAndAResumeNoLongerSeesIt() {
        var saver = new PostgresCheckpointSaver(dataSource);
        var operation = OperationId.random();
        var config = config(operation);
        var first = checkpoint("__START__", "reserve", Map.of("v", 1));
        var second = checkpoint("reserve", "__END__", Map.of("v", 2));
        saver.put(config, first);
        saver.put(config, second);

        var tag = saver.release(config);

        assertThat(tag.threadId()).isEqualTo(operation.toString());
        assertThat(tag.checkpoints()).extracting(Checkpoint::getId).containsExactly(second.getId(), first.getId());
        assertThat(saver.get(config)).isEmpty();
        assertThat(saver.list(config)).isEmpty();
        assertThat(saver.release(config).checkpoints()).isEmpty();
        // a new run of the thread starts empty and numbers on; the released run stays as history
        var next = checkpoint("__START__", "reserve", Map.of("v", 3));
        saver.put(config, next);
        assertThat(saver.list(config)).extracting(Checkpoint::getId).containsExactly(next.getId());
        assertThat(parents(operation)).containsExactly("none", first.getId(), "none");
    }

    @Test
    void onlyOperationIdsNameThreads() {
        var saver = new PostgresCheckpointSaver(dataSource);

        assertThatThrownBy(() -> saver.get(RunnableConfig.builder().build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"$default\"");
        assertThatThrownBy(() -> saver.list(RunnableConfig.builder().threadId("checkout-1").build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("operationId");
    }

    @Test
    void stateIsStoredAsQueryableJsonb() {
        var saver = new PostgresCheckpointSaver(dataSource);
        var operation = OperationId.random();
        saver.put(config(operation), checkpoint("reserve", "capture", Map.of("order", Map.of("amount", new BigDecimal("19.99")))));

        String amount = jdbc.queryForObject("SELECT state->'order'->>'amount' FROM graph_checkpoint WHERE thread_id = ?",
                String.class, operation.value());

        assertThat(amount).isEqualTo("19.99");
    }

    @Test
    void aStringWithANulCharacterCannotBeStored() {
        var saver = new PostgresCheckpointSaver(dataSource);
        var config = config(OperationId.random());
        char[] withNul = "a?b".toCharArray();
        withNul[1] = 0;

        assertThatThrownBy(() -> saver.put(config, checkpoint("reserve", "capture", Map.of("text", new String(withNul)))))
                .hasMessageContaining("\\u0000");
        assertThat(saver.list(config)).isEmpty();
    }

    /** Each checkpoint's parent, newest first, "none" for none. */
    private List<String> parents(OperationId operation) {
        return jdbc.queryForList("SELECT coalesce(parent_id::text, 'none') FROM graph_checkpoint WHERE thread_id = ? "
                + "ORDER BY seq DESC", String.class, operation.value());
    }

    static RunnableConfig config(OperationId operation) {
        return RunnableConfig.builder().threadId(operation.toString()).build();
    }

    static Checkpoint checkpoint(String node, String next, Map<String, Object> state) {
        return Checkpoint.builder().nodeId(node).nextNodeId(next).state(state).build();
    }
}
