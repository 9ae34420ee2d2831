package dev.opledger.tools.points;

import dev.opledger.tools.toolkit.ToolOutcome;
import java.util.Map;
import java.util.UUID;

/** The balance right after an adjustment. */
record AdjustedBalance(UUID adjustmentId, String account, long delta, long balance) {

    ToolOutcome.Success asOutcome() {
        return new ToolOutcome.Success(Map.of("adjustmentId", adjustmentId.toString(), "account", account,
                "delta", delta, "balance", balance),
                "Adjusted " + account + " by " + delta + " to " + balance + " points");
    }
}
