package dev.opledger.classification;

/** What became of an admin's accept or reject of a probe's suggestion. */
public sealed interface ProbeDecision {

    /** Decided; when accepted, {@code tool} has the suggested class with source PROBE. */
    record Decided(ToolProbe probe, RegisteredTool tool) implements ProbeDecision {
    }

    /** The tool changed since the admin read it (its version moved on): nothing was changed. */
    record ChangedMeanwhile(RegisteredTool current) implements ProbeDecision {
    }

    /** Someone decided first, or the probe has nothing to decide on ({@code NONE}): nothing was changed. */
    record NotOpen(long probeId, ToolProbe.Decision decision) implements ProbeDecision {
    }

    /** No probe has that id. */
    record NotFound(long probeId) implements ProbeDecision {
    }
}
