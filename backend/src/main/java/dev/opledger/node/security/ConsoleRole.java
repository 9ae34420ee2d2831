package dev.opledger.node.security;

/**
 * The console's roles. SUPPORT inspects (and, later, cancels); ADMIN also edits tool
 * classifications and replays, and includes everything SUPPORT may do.
 */
public enum ConsoleRole {
    SUPPORT,
    ADMIN;

    /** The Spring Security authority, {@code ROLE_<name>}. */
    public String authority() {
        return "ROLE_" + name();
    }
}
