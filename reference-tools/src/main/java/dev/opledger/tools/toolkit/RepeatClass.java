package dev.opledger.tools.toolkit;

/**
 * How a caller may repeat a tool, as the server declares it in the tool's {@code _meta}
 * (ARCHITECTURE.md, "Tool repeat classes"). Annotations alone cannot say "keyed" or name a check.
 */
public enum RepeatClass {
    READ_ONLY("read-only"),
    IDEMPOTENT("idempotent"),
    KEYED("keyed"),
    CHECK_THEN_WRITE("check-then-write"),
    NEVER_REPEAT("never-repeat");

    private final String label;

    RepeatClass(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
