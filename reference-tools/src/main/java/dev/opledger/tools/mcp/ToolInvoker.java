package dev.opledger.tools.mcp;

import dev.opledger.tools.fault.FaultPlan;
import dev.opledger.tools.fault.Faults;
import dev.opledger.tools.fault.InvalidFaultException;
import dev.opledger.tools.task.TaskRunner;
import dev.opledger.tools.task.TaskStart;
import dev.opledger.tools.toolkit.InvalidArgumentException;
import dev.opledger.tools.toolkit.ReferenceTool;
import dev.opledger.tools.toolkit.TaskTool;
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
 * the dropped response. A task tool's call starts its task instead (an injected failure makes a
 * task that fails when due, with a JSON-RPC error, as a protocol failure during the work would).
 */
class ToolInvoker {

    private static final Logger log = LoggerFactory.getLogger(ToolInvoker.class);

    private final Map<String, ReferenceTool> tools;
    private final TaskRunner tasks;
    private final Faults faults;

    ToolInvoker(List<ReferenceTool> tools, TaskRunner tasks, Faults faults) {
        this.tools = tools.stream().collect(Collectors.toUnmodifiableMap(ReferenceTool::name, Function.identity()));
        this.tasks = tasks;
        this.faults = faults;
    }

    List<ReferenceTool> tools() {
        return tools.values().stream().sorted(Comparator.comparing(ReferenceTool::name)).toList();
    }

    Optional<ReferenceTool> tool(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    List<TaskTool> taskTools() {
        return tasks.tools().values().stream().sorted(Comparator.comparing(TaskTool::name)).toList();
    }

    Optional<TaskTool> taskTool(String name) {
        return Optional.ofNullable(tasks.tools().get(name));
    }

    ToolOutcome call(ReferenceTool tool, @Nullable Map<String, Object> arguments, CallEnvironment environment) {
        return invoke(tool.name(), environment, plan -> {
            if (plan.fail()) {
                return new ToolOutcome.Failure("INJECTED_FAILURE",
                        "injected fault: " + tool.name() + " failed before doing anything");
            }
            try {
                return tool.call(ToolArguments.parse(arguments, tool.descriptor()));
            } catch (InvalidArgumentException e) {
                return new ToolOutcome.Failure("INVALID_ARGUMENTS", e.getMessage());
            }
        }, failure -> failure);
    }

    TaskStart startTask(TaskTool tool, @Nullable Map<String, Object> arguments, CallEnvironment environment) {
        return invoke(tool.name(), environment, plan -> {
            try {
                ToolArguments parsed = ToolArguments.parse(arguments, tool.descriptor());
                tool.check(parsed);
                return tasks.start(tool, parsed, plan.fail() ? "injected fault: " + tool.name() + " failed" : null);
            } catch (InvalidArgumentException e) {
                return new TaskStart.Refused(new ToolOutcome.Failure("INVALID_ARGUMENTS", e.getMessage()));
            }
        }, TaskStart.Refused::new);
    }

    private <T> T invoke(String tool, CallEnvironment environment, Function<FaultPlan, T> call,
            Function<ToolOutcome.Failure, T> refused) {
        FaultPlan plan;
        try {
            plan = faults.planFor(tool, environment.faultHeader());
        } catch (InvalidFaultException e) {
            return refused.apply(new ToolOutcome.Failure("INVALID_FAULT", e.getMessage()));
        }
        if (!plan.isNone()) {
            log.info("{}: injecting {}", tool, plan);
        }
        sleep(plan);
        T outcome = call.apply(plan);
        log.debug("{}: {}", tool, outcome);
        if (plan.dropResponse()) {
            log.info("{}: dropping the response after the call", tool);
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
