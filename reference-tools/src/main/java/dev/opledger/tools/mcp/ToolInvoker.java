package dev.opledger.tools.mcp;

import dev.opledger.tools.fault.FaultPlan;
import dev.opledger.tools.fault.Faults;
import dev.opledger.tools.fault.InvalidFaultException;
import dev.opledger.tools.toolkit.InvalidArgumentException;
import dev.opledger.tools.toolkit.ReferenceTool;
import dev.opledger.tools.toolkit.ToolArguments;
import dev.opledger.tools.toolkit.ToolOutcome;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One call, the same in both protocol revisions: the faults for it, then a delay, then either an
 * injected failure or the tool itself (its effect committed when it returns), then, if asked,
 * the dropped response.
 */
class ToolInvoker {

    private static final Logger log = LoggerFactory.getLogger(ToolInvoker.class);

    private final Map<String, ReferenceTool> tools;
    private final Faults faults;

    ToolInvoker(List<ReferenceTool> tools, Faults faults) {
        this.tools = tools.stream().collect(Collectors.toUnmodifiableMap(ReferenceTool::name, Function.identity()));
        this.faults = faults;
    }

    List<ReferenceTool> tools() {
        return tools.values().stream().sorted(Comparator.comparing(ReferenceTool::name)).toList();
    }

    Optional<ReferenceTool> tool(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    ToolOutcome call(ReferenceTool tool, @Nullable Map<String, Object> arguments, CallEnvironment environment) {
        FaultPlan plan;
        try {
            plan = faults.planFor(tool.name(), environment.faultHeader());
        } catch (InvalidFaultException e) {
            return new ToolOutcome.Failure("INVALID_FAULT", e.getMessage());
        }
        if (!plan.isNone()) {
            log.info("{}: injecting {}", tool.name(), plan);
        }
        sleep(plan);
        if (plan.fail()) {
            return new ToolOutcome.Failure("INJECTED_FAILURE",
                    "injected fault: " + tool.name() + " failed before doing anything");
        }
        ToolOutcome outcome;
        try {
            outcome = tool.call(ToolArguments.parse(arguments, tool.descriptor()));
        } catch (InvalidArgumentException e) {
            outcome = new ToolOutcome.Failure("INVALID_ARGUMENTS", e.getMessage());
        }
        log.debug("{}: {}", tool.name(), outcome instanceof ToolOutcome.Failure f ? f.error() : "done");
        if (plan.dropResponse()) {
            log.info("{}: dropping the response after the call", tool.name());
            environment.fate().drop();
        }
        return outcome;
    }

    private static void sleep(FaultPlan plan) {
        if (plan.delay().isPositive()) {
            try {
                Thread.sleep(plan.delay());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
