package dev.opledger.effect;

/** Where a step's effect stands in its record. */
public enum EffectStatus {
    /** A call was about to be made (or made) and its outcome is not recorded: unknown. */
    STARTED,
    /** The tool answered with a result; a repeat of the step is served from the record. */
    SUCCEEDED,
    /** The tool refused; the call completed without effect. */
    FAILED
}
