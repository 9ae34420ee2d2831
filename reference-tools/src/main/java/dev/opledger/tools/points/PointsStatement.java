package dev.opledger.tools.points;

import dev.opledger.tools.toolkit.ToolOutcome;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What get_points answers: the balance, the adjustment of the asked operation and step if it
 * landed, and the latest adjustments.
 */
record PointsStatement(String account, long balance, Optional<Adjustment> applied, List<Adjustment> recent) {

    ToolOutcome.Success asOutcome(String operationId, String stepKey) {
        Map<String, Object> result = new HashMap<>();
        result.put("account", account);
        result.put("balance", balance);
        result.put("applied", applied.isPresent());
        applied.ifPresent(adjustment -> result.put("appliedAdjustment", adjustment.asResult()));
        result.put("recent", recent.stream().map(Adjustment::asResult).toList());
        return new ToolOutcome.Success(result, account + " has " + balance + " points; the adjustment of "
                + operationId + ":" + stepKey + (applied.isPresent() ? " has landed" : " has not landed"));
    }
}
