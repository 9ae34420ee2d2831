package dev.opledger.ui.tools;

import dev.opledger.classification.RegisteredTool;
import dev.opledger.classification.ToolChange;
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
}
