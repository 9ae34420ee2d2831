package dev.opledger.classification;

import org.jspecify.annotations.Nullable;

/**
 * A tool's recorded repeat class, with the retry policy that goes with it.
 *
 * @param check for CHECK_THEN_WRITE, how to tell whether the effect landed
 * @param version counts the changes of the tool's registry entry (optimistic locking)
 */
public record ToolClass(String server, String tool, RepeatClass repeatClass, ClassSource source,
        @Nullable LandedCheck check, RetryPolicy retry, @Nullable String reason, long version) {

    public ToolClass {
        retry = retry == null ? RetryPolicy.DEFAULTS : retry;
        if ((repeatClass == RepeatClass.CHECK_THEN_WRITE) != (check != null)) {
            throw new IllegalArgumentException(server + "/" + tool + ": a check-then-write tool, and only one, names its check");
        }
    }

    /** For CHECK_THEN_WRITE, the read tool that tells whether the effect landed. */
    public @Nullable String checkTool() {
        return check == null ? null : check.tool();
    }
}
