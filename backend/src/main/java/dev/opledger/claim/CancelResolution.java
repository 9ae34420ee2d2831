package dev.opledger.claim;

/** How a requested cancel ended, as the ledger tells it apart. */
public enum CancelResolution {
    /** No effect landed after the request: the operation is CANCELLED (or FAILED, when the tool in flight refused). */
    STOPPED,
    /**
     * The effect in flight when the cancel was requested landed ({@link CancelRecord#step()} and
     * {@link CancelRecord#tool()} say which); no effect started after it. The operation is
     * CANCELLED, or SUCCEEDED when that effect was its last.
     */
    EFFECT_COMMITTED_ANYWAY,
    /** A never-repeat call was in flight and its outcome is unknown: the operation is NEEDS_REVIEW, a person decides. */
    NEEDS_REVIEW,
    /** The run had made its last effect before it reached a step boundary: the operation SUCCEEDED. */
    COMPLETED
}
