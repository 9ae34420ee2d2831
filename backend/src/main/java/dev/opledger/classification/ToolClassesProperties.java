package dev.opledger.classification;

import java.nio.file.Path;
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
 * @param sandboxes per server, the sandbox its write tools may be probed in ({@code
 *     sandboxes.<server>.directory}); a server without one is never probed
 */
@ConfigurationProperties("opledger.tools")
public record ToolClassesProperties(@DefaultValue Map<String, Map<String, Configured>> classes,
        @DefaultValue("true") boolean discoverAtStart, @DefaultValue Map<String, Sandbox> sandboxes) {

    public ToolClassesProperties {
        sandboxes = Map.copyOf(sandboxes);
    }

    /**
     * Where a double-run probe may call a server's write tools: a scratch directory inside the
     * server's allowed roots, on this node's file system (a stdio server the node starts). Each
     * probe works in a fresh subdirectory of it; its path arguments are relative to that one.
     *
     * @param directory an absolute path; created if missing
     * @param pathArguments the tools' arguments that name a file or directory (a string, or a
     *     list of strings): they must stay inside the probe's directory
     * @param treeTool the read tool that lists a directory's tree as JSON ({@code [{name, type,
     *     children}]})
     * @param readTool the read tool that returns a file's text
     */
    public record Sandbox(Path directory,
            @DefaultValue({"path", "paths", "source", "destination"}) List<String> pathArguments,
            @DefaultValue("directory_tree") String treeTool, @DefaultValue("read_text_file") String readTool) {

        public Sandbox {
            if (directory == null || !directory.isAbsolute()) {
                throw new IllegalArgumentException("opledger.tools.sandboxes.<server>.directory must be an absolute path");
            }
            directory = directory.normalize();
            pathArguments = List.copyOf(pathArguments);
        }
    }

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
