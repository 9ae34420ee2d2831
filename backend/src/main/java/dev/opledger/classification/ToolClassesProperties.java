package dev.opledger.classification;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The tool registry's settings ({@code opledger.tools}). {@code classes.<server>.<tool>} sets a
 * repeat class (with {@code check-tool} and how to read it for check-then-write) and a retry
 * policy; they win over what annotations suggest, and lose to a probe or an admin.
 *
 * @param discoverAtStart list every configured server's tools when the node has started
 */
@ConfigurationProperties("opledger.tools")
public record ToolClassesProperties(@DefaultValue Map<String, Map<String, Configured>> classes,
        @DefaultValue("true") boolean discoverAtStart) {

    /**
     * @param checkArguments the write's arguments the check tool gets
     * @param checkLandedField the field of the check's result that is true once the effect landed
     * @param checkResultFields the fields of the check's result that stand for the write's result
     */
    public record Configured(RepeatClass repeatClass, @Nullable String checkTool, @Nullable String reason,
            @Nullable List<String> checkArguments, @Nullable String checkLandedField,
            @Nullable List<String> checkResultFields, @Nullable Integer maxCalls, @Nullable Duration backoff,
            @Nullable Duration callTimeout) {

        public Configured {
            if (repeatClass == null) {
                throw new IllegalArgumentException("opledger.tools.classes.<server>.<tool>.repeat-class is required: "
                        + "read, idempotent, keyed, check_then_write or never_repeat");
            }
            if ((repeatClass == RepeatClass.CHECK_THEN_WRITE) != (checkTool != null && !checkTool.isBlank())) {
                throw new IllegalArgumentException("check-tool is required for a check_then_write tool, and only for one"
                        + " (repeat-class " + repeatClass.name().toLowerCase(java.util.Locale.ROOT) + ")");
            }
            if (checkTool == null && (checkLandedField != null || checkArguments != null || checkResultFields != null)) {
                throw new IllegalArgumentException("check-arguments, check-landed-field and check-result-fields describe "
                        + "a check-tool: set one");
            }
            // RetryPolicy says what is wrong with a policy (max-calls below 1, a negative backoff, …)
            new RetryPolicy(maxCalls, backoff, callTimeout);
        }

        @Nullable
        LandedCheck check() {
            return checkTool == null ? null : new LandedCheck(checkTool, checkArguments, checkLandedField, checkResultFields);
        }

        RetryPolicy retry() {
            return new RetryPolicy(maxCalls, backoff, callTimeout);
        }
    }
}
