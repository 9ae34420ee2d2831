package dev.opledger.classification;

import org.jspecify.annotations.Nullable;

/**
 * A tool's recorded repeat class.
 *
 * @param checkTool for CHECK_THEN_WRITE, the read tool that tells whether the effect landed
 */
public record ToolClass(String server, String tool, RepeatClass repeatClass, ClassSource source,
        @Nullable String checkTool, @Nullable String reason) {
}
