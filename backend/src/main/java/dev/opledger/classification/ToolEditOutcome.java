package dev.opledger.classification;

/** What became of an admin's edit of a tool's class or retry policy. */
public sealed interface ToolEditOutcome {

    /** Applied; {@code tool} is the registry's entry afterwards. */
    record Edited(RegisteredTool tool) implements ToolEditOutcome {
    }

    /**
     * Someone changed the tool since the editor read it (its version moved on): nothing was
     * changed; {@code current} is the entry as it is now, to show beside what the editor typed.
     */
    record ChangedMeanwhile(RegisteredTool current) implements ToolEditOutcome {
    }

    /** The registry has no such tool. */
    record NotFound(String server, String tool) implements ToolEditOutcome {
    }
}
