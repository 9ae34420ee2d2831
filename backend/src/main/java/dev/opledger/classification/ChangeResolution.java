package dev.opledger.classification;

/** What became of a request to accept or reject a flagged change. */
public sealed interface ChangeResolution {

    /** Resolved; {@code tool} is the registry's entry afterwards. */
    record Resolved(ToolChange.Status status, RegisteredTool tool) implements ChangeResolution {
    }

    /** No change has that id. */
    record NotFound(long id) implements ChangeResolution {
    }

    /** Someone resolved it already (perhaps at the same moment): nothing was changed. */
    record AlreadyResolved(long id, ToolChange.Status status) implements ChangeResolution {
    }
}
