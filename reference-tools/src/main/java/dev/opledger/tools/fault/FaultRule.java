package dev.opledger.tools.fault;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A standing fault for a tool: on every call, or on the next N calls only ({@code <fault>*N}).
 *
 * @param remaining calls left to fault, or -1 for every call
 */
record FaultRule(String tool, Fault fault, AtomicInteger remaining) {

    /** Reads a comma-separated list such as {@code delay:200, drop-response*1}. */
    static List<FaultRule> parse(String tool, String specification) {
        List<FaultRule> rules = new ArrayList<>();
        for (String part : specification.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            String[] faultAndCount = part.split("\\*", 2);
            int count = -1;
            if (faultAndCount.length == 2) {
                try {
                    count = Integer.parseInt(faultAndCount[1].strip());
                } catch (NumberFormatException e) {
                    count = 0;
                }
                if (count <= 0) {
                    throw new InvalidFaultException("'" + part.strip() + "': the count after * must be at least 1");
                }
            }
            rules.add(new FaultRule(tool, Fault.parse(faultAndCount[0]), new AtomicInteger(count)));
        }
        return rules;
    }

    /** Whether this rule faults the current call, using one of its remaining calls if counted. */
    boolean take() {
        return remaining.get() < 0 || remaining.getAndUpdate(left -> left > 0 ? left - 1 : 0) > 0;
    }

    boolean spent() {
        return remaining.get() == 0;
    }
}
