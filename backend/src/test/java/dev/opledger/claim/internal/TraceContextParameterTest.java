package dev.opledger.claim.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.outbox.OutboxRow;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every statement that writes an event binds the trace context as its last parameter (the call
 * sites append {@code OutboxTrace.current()}): nothing after it may take a parameter, or the
 * context would land in another column.
 */
class TraceContextParameterTest {

    @Test
    void everyLifecycleStatementThatWritesAnEventTakesTheTraceContextLast() throws IllegalAccessException {
        List<String> writing = eventStatements(LifecycleStatements.class);

        assertThat(writing).hasSizeGreaterThanOrEqualTo(8).allSatisfy(sql -> {
            assertThat(sql).contains(OutboxRow.TRACE);
            assertThat(sql.substring(sql.lastIndexOf(OutboxRow.TRACE) + OutboxRow.TRACE.length())).doesNotContain("?");
        });
    }

    @Test
    void everyEffectStatementThatWritesAnEventTakesTheTraceContextLast() throws IllegalAccessException {
        List<String> writing = eventStatements(dev.opledger.effect.internal.EffectRecords.class);

        assertThat(writing).isNotEmpty().allSatisfy(sql -> assertThat(
                sql.substring(sql.lastIndexOf(OutboxRow.TRACE) + OutboxRow.TRACE.length())).doesNotContain("?"));
    }

    @Test
    void theClaimTakesTheTraceContextLast() {
        String last = "?::text AS trace_context";
        assertThat(ClaimStatement.SQL.substring(ClaimStatement.SQL.indexOf(last) + last.length())).doesNotContain("?");
    }

    static List<String> eventStatements(Class<?> type) throws IllegalAccessException {
        var statements = new java.util.ArrayList<String>();
        for (Field field : Arrays.stream(type.getDeclaredFields())
                .filter(f -> Modifier.isStatic(f.getModifiers()) && f.getType() == String.class).toList()) {
            field.setAccessible(true);
            String sql = (String) field.get(null);
            if (sql.contains("INSERT INTO outbox_event")) {
                statements.add(sql);
            }
        }
        return statements;
    }
}
