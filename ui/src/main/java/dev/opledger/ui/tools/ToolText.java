package dev.opledger.ui.tools;

import dev.opledger.classification.RegisteredTool;
import dev.opledger.classification.ToolChange;
import dev.opledger.classification.ToolProbe;
import dev.opledger.ui.Formats;
import dev.opledger.mcp.ToolHints;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/** How the Tools view writes a tool's annotations, check and flagged changes. */
final class ToolText {

    private ToolText() {
    }

    /** {@code readOnly, idempotent, destructive=false}: only the hints the server gave. */
    static String annotations(ToolHints hints) {
        List<String> given = new ArrayList<>();
        hint(given, "readOnly", hints.readOnly());
        hint(given, "idempotent", hints.idempotent());
        hint(given, "destructive", hints.destructive());
        hint(given, "openWorld", hints.openWorld());
        return given.isEmpty() ? "none" : String.join(", ", given);
    }

    private static void hint(List<String> given, String name, @Nullable Boolean value) {
        if (value != null) {
            given.add(value ? name : name + "=false");
        }
    }

    static String check(RegisteredTool tool) {
        var check = tool.toolClass().check();
        if (check == null) {
            return "—";
        }
        return check.landedField() == null ? check.tool() : check.tool() + " (landed: " + check.landedField() + ")";
    }

    /** {@code SCHEMA, ANNOTATIONS}, or none. */
    static String flagged(RegisteredTool tool) {
        return tool.openChanges().isEmpty() ? "none"
                : tool.openChanges().stream().map(change -> change.kind().name()).collect(Collectors.joining(", "));
    }

    static String change(ToolChange change) {
        return switch (change.kind()) {
            case REMOVED -> "no longer listed by the server";
            case SCHEMA, ANNOTATIONS -> "recorded " + change.recorded() + " → listed " + change.listed();
        };
    }

    /** {@code 2026-12-01 15:40:02 · second run NO_OP · suggests IDEMPOTENT (open)}. */
    static String probe(ToolProbe probe) {
        String when = Formats.instant(probe.startedAt());
        if (probe.status() == ToolProbe.Status.RUNNING) {
            return when + " · running";
        }
        String what = probe.secondRun() == null ? "no verdict" : "second run " + probe.secondRun().name();
        String suggestion = probe.suggested() == null ? "suggests nothing"
                : "suggests " + probe.suggested().name() + " (" + probe.decision().name().toLowerCase() + ")";
        return when + " · " + what + " · " + suggestion;
    }

    /** {@code OK in 12 ms: Successfully wrote to …}. */
    static String run(ToolProbe.@Nullable Run run) {
        return run == null ? "not run" : run.outcome().name() + " in " + run.millis() + " ms: " + run.reply();
    }
}
