package dev.opledger.classification;

/** Where a tool's repeat class came from; later sources override earlier ones. */
public enum ClassSource {
    /** Derived from the tool's MCP annotations. */
    ANNOTATION,
    /** Set in {@code opledger.tools.classes}. */
    CONFIGURATION,
    /** Measured by running the tool twice on a sandbox target. */
    PROBE,
    /** Decided by an admin in the console, with a reason. */
    ADMIN
}
