package dev.opledger.classification;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * How to tell whether a check-then-write tool's effect landed: call the read tool {@code tool} of
 * the same server with the write's arguments named in {@code arguments} (and the step's
 * {@code operationId} and {@code stepKey}, as the write had them); the effect landed when the
 * field {@code landedField} of its result is {@code true}. The write's result is then the check's
 * fields named in {@code resultFields} (all of them when none are named).
 */
public record LandedCheck(String tool, List<String> arguments, @Nullable String landedField,
        List<String> resultFields) {

    public LandedCheck {
        arguments = arguments == null ? List.of() : List.copyOf(arguments);
        resultFields = resultFields == null ? List.of() : List.copyOf(resultFields);
    }

    /** A check named by its tool only, as older configuration does: the gateway needs the step to say how to check. */
    public static LandedCheck byTool(String tool) {
        return new LandedCheck(tool, List.of(), null, List.of());
    }

    /** Whether the registry says enough to check without the step's help. */
    public boolean derivable() {
        return landedField != null;
    }
}
