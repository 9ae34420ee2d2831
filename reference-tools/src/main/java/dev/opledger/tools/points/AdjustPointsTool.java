package dev.opledger.tools.points;

import dev.opledger.tools.toolkit.InputSchema;
import dev.opledger.tools.toolkit.InvalidArgumentException;
import dev.opledger.tools.toolkit.ReferenceTool;
import dev.opledger.tools.toolkit.RepeatClass;
import dev.opledger.tools.toolkit.ToolArguments;
import dev.opledger.tools.toolkit.ToolDescriptor;
import dev.opledger.tools.toolkit.ToolHints;
import dev.opledger.tools.toolkit.ToolOutcome;
import java.util.Map;

/** Check-then-write: not idempotent, but get_points tells whether an operation's step already adjusted. */
class AdjustPointsTool implements ReferenceTool {

    static final String NAME = "adjust_points";

    private static final ToolDescriptor DESCRIPTOR = new ToolDescriptor(NAME, "Adjust points",
            "Adds delta (negative to take away) to an account's points balance. Every call adds again; "
                    + "call get_points with the same operationId and stepKey first to see whether this "
                    + "step's adjustment already landed.",
            InputSchema.forOperationStep()
                    .required("account", InputSchema.text("The loyalty account"))
                    .required("delta", Map.of("type", "integer", "not", Map.of("const", 0),
                            "description", "Points to add; negative to take away")),
            ToolHints.write(false, false), RepeatClass.CHECK_THEN_WRITE)
            .withMeta(ToolDescriptor.CHECK_TOOL, GetPointsTool.NAME);

    private final Points points;

    AdjustPointsTool(Points points) {
        this.points = points;
    }

    @Override
    public ToolDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public ToolOutcome call(ToolArguments arguments) {
        String account = arguments.text("account");
        long delta = arguments.integer("delta");
        if (delta == 0) {
            throw new InvalidArgumentException("'delta' must not be 0");
        }
        return points.adjust(account, delta, arguments).asOutcome();
    }
}
