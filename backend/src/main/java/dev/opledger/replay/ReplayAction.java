package dev.opledger.replay;

/** What a replay will do with an effect recorded after its checkpoint. */
public enum ReplayAction {
    /** Recorded SUCCEEDED: the step is served from its record (same arguments), the tool is not called. */
    SERVED,
    /**
     * Called again as its class allows: after the tool's refusal (FAILED), or an unknown outcome of
     * an idempotent tool (called), a keyed one (the same idempotency key) or a check-then-write one
     * (its check first, then a write only if the effect did not land).
     */
    CALLED,
    /**
     * A call could repeat an effect that may have landed: a never-repeat tool whose outcome is
     * unknown, or a step a person gave up. The replay stops before it (NEEDS_REVIEW) unless a
     * person acknowledged it by name, taking responsibility for a possible second effect.
     */
    BLOCKED
}
