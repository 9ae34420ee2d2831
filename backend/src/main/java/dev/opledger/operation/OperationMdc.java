package dev.opledger.operation;

import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;

/**
 * The MDC key {@value #KEY}, which every log line about an operation carries (STYLE.md,
 * "Logging"). A scope restores what the key held before it, so a nested scope (a graph run inside
 * the worker's run of the same operation, a tool call inside an effect) never leaves the
 * enclosing code's later lines without it, as {@code MDC.putCloseable}'s removal did.
 */
public final class OperationMdc {

    /** The MDC key of the operationId, in its canonical text form. */
    public static final String KEY = "operationId";

    private OperationMdc() {
    }

    /** Sets the operationId for the current thread until the scope closes. */
    public static Scope put(OperationId operationId) {
        return put(operationId.toString());
    }

    /**
     * As {@link #put(OperationId)}, for an operationId that is only text (a tool call's
     * arguments), and nothing when there is none.
     */
    public static Scope put(@Nullable String operationId) {
        if (operationId == null) {
            return () -> { };
        }
        String previous = MDC.get(KEY);
        MDC.put(KEY, operationId);
        return () -> restore(previous);
    }

    /**
     * The task, run with the operationId of the thread that hands it over (taken now) in place
     * of whatever the running thread holds: a Spring {@code TaskDecorator} as
     * {@code OperationMdc::carry}.
     */
    public static Runnable carry(Runnable task) {
        String handedOver = MDC.get(KEY);
        return () -> {
            String previous = MDC.get(KEY);
            restore(handedOver);
            try {
                task.run();
            } finally {
                restore(previous);
            }
        };
    }

    private static void restore(@Nullable String value) {
        if (value == null) {
            MDC.remove(KEY);
        } else {
            MDC.put(KEY, value);
        }
    }

    /** An operationId's time in the MDC; closing it throws nothing. */
    @FunctionalInterface
    public interface Scope extends AutoCloseable {

        @Override
        void close();
    }
}
