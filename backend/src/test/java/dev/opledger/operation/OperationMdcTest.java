package dev.opledger.operation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

class OperationMdcTest {

    private final OperationId outer = OperationId.random();
    private final OperationId inner = OperationId.random();

    @AfterEach
    void clear() {
        MDC.clear();
    }

    @Test
    void aNestedScopeRestoresTheEnclosingOperationIdInsteadOfRemovingIt() {
        try (var run = OperationMdc.put(outer)) {
            try (var graph = OperationMdc.put(outer)) {
                assertThat(MDC.get(OperationMdc.KEY)).isEqualTo(outer.toString());
            }
            assertThat(MDC.get(OperationMdc.KEY)).isEqualTo(outer.toString());
            try (var other = OperationMdc.put(inner)) {
                assertThat(MDC.get(OperationMdc.KEY)).isEqualTo(inner.toString());
            }
            assertThat(MDC.get(OperationMdc.KEY)).isEqualTo(outer.toString());
        }
        assertThat(MDC.get(OperationMdc.KEY)).isNull();
    }

    @Test
    void noOperationIdLeavesTheMdcAsItIs() {
        try (var run = OperationMdc.put(outer)) {
            try (var none = OperationMdc.put((String) null)) {
                assertThat(MDC.get(OperationMdc.KEY)).isEqualTo(outer.toString());
            }
            assertThat(MDC.get(OperationMdc.KEY)).isEqualTo(outer.toString());
        }
    }

    @Test
    void aCarriedTaskRunsWithTheHandingThreadsOperationIdAndLeavesThePoolThreadAsItWas() throws Exception {
        var pool = Executors.newSingleThreadExecutor();
        try {
            pool.submit(() -> MDC.put(OperationMdc.KEY, inner.toString())).get(10, TimeUnit.SECONDS);
            Runnable carried;
            try (var run = OperationMdc.put(outer)) {
                carried = OperationMdc.carry(() -> assertThat(MDC.get(OperationMdc.KEY)).isEqualTo(outer.toString()));
            }

            CompletableFuture.runAsync(carried, pool).get(10, TimeUnit.SECONDS);

            assertThat(pool.submit(() -> MDC.get(OperationMdc.KEY)).get(10, TimeUnit.SECONDS)).isEqualTo(inner.toString());
        } finally {
            pool.shutdownNow();
        }
    }
}
