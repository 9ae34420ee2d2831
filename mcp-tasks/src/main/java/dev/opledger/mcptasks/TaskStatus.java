package dev.opledger.mcptasks;

import java.util.Arrays;

/** A task's status as the wire spells it. */
public enum TaskStatus {
    WORKING("working"),
    INPUT_REQUIRED("input_required"),
    COMPLETED("completed"),
    CANCELLED("cancelled"),
    FAILED("failed");

    private final String wire;

    TaskStatus(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    /** Completed, cancelled or failed: the task does not change any more. */
    public boolean terminal() {
        return this == COMPLETED || this == CANCELLED || this == FAILED;
    }

    /** @throws IllegalArgumentException for a status the specification does not define */
    public static TaskStatus of(String wire) {
        return Arrays.stream(values()).filter(status -> status.wire.equals(wire)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown task status '" + wire + "'"));
    }
}
