package dev.opledger.tools.points;

import dev.opledger.tools.toolkit.InputSchema;
import dev.opledger.tools.toolkit.ReferenceTool;
import dev.opledger.tools.toolkit.RepeatClass;
import dev.opledger.tools.toolkit.ToolArguments;
import dev.opledger.tools.toolkit.ToolDescriptor;
import dev.opledger.tools.toolkit.ToolHints;
import dev.opledger.tools.toolkit.ToolOutcome;

/** Read-only: the check of adjust_points. */
class GetPointsTool implements ReferenceTool {

    static final String NAME = "get_points";

    private static final ToolDescriptor DESCRIPTOR = new ToolDescriptor(NAME, "Get points",
            "An account's points balance, whether an adjustment made with this call's operationId and "
                    + "stepKey has landed (applied, appliedAdjustment), and the latest " + Points.RECENT
                    + " adjustments with their operation ids. Changes nothing.",
            InputSchema.forOperationStep().required("account", InputSchema.text("The loyalty account")),
            ToolHints.readOnly(), RepeatClass.READ_ONLY);

    private final Points points;

    GetPointsTool(Points points) {
        this.points = points;
    }

    @Override
    public ToolDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public ToolOutcome call(ToolArguments arguments) {
        return points.statement(arguments.text("account"), arguments.operationId(), arguments.stepKey())
                .asOutcome(arguments.operationId(), arguments.stepKey());
    }
}
