package dev.opledger.checkout;

import static org.bsc.langgraph4j.action.AsyncNodeActionWithConfig.node_async;

import dev.opledger.claim.LeasedOperation;
import dev.opledger.claim.LifecycleService;
import dev.opledger.effect.CrashPoints;
import dev.opledger.effect.EffectGateway;
import dev.opledger.graph.CheckpointConflictException;
import dev.opledger.graph.ExecutionOutcome;
import dev.opledger.graph.GraphOptions;
import dev.opledger.graph.GraphRunFailedException;
import dev.opledger.graph.GraphRunner;
import dev.opledger.graph.GraphService;
import dev.opledger.graph.LeaseGuard;
import dev.opledger.graph.OperationType;
import dev.opledger.graph.RunOutcome;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import org.bsc.langgraph4j.action.AsyncNodeActionWithConfig;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * The {@code checkout} operation type: its graph ({@link CheckoutGraph}) is compiled once; a run
 * starts the operation's thread from the command's arguments or resumes it where the last run
 * stopped, and ends in the outcome the worker records.
 */
@Component
class CheckoutOperation implements OperationType {

    static final String NAME = "checkout";
    static final String SCHEMA = "operation-types/checkout.schema.json";

    private final GraphRunner<CheckoutState> runner;
    private final CheckoutRuns runs = new CheckoutRuns();
    private final CrashPoints crashes;
    private final BigDecimal approvalLimit;

    CheckoutOperation(GraphService graphs, EffectGateway gateway, LifecycleService lifecycle, CheckoutProperties properties, CrashPoints crashes,
            ObjectProvider<CheckoutPlanner> planner) {
        this.crashes = crashes;
        this.approvalLimit = properties.approvalLimit();
        var effects = new CheckoutEffects(gateway, properties.mcpServer());
        Map<CheckoutStep, AsyncNodeActionWithConfig<CheckoutState>> nodes = new LinkedHashMap<>();
        nodes.put(CheckoutStep.RESERVE, node_async(new ReserveNode(runs, effects, approvalLimit)));
        nodes.put(CheckoutStep.APPROVAL, new AwaitApprovalNode(runs, lifecycle));
        nodes.put(CheckoutStep.CAPTURE, node_async(new CaptureNode(runs, effects)));
        nodes.put(CheckoutStep.POINTS, node_async(new CreditPointsNode(runs, effects)));
        nodes.put(CheckoutStep.SHIPPING, node_async(new SetShippingNode(runs, effects)));
        nodes.put(CheckoutStep.RECEIPT, node_async(new SendReceiptNode(runs, effects)));
        nodes.put(CheckoutStep.RELEASE, node_async(new ReleaseNode(runs, effects)));
        this.runner = graphs.runner(CheckoutGraph.build(nodes, planner.getIfAvailable(FixedCheckoutPlanner::new)),
                GraphOptions.none());
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String argumentsSchema() {
        return SCHEMA;
    }

    @Override
    public ExecutionOutcome execute(LeasedOperation operation, LeaseGuard lease) {
        CheckoutArguments arguments;
        try {
            arguments = CheckoutArguments.fromCommand(operation.command());
        } catch (IllegalArgumentException e) {
            return new ExecutionOutcome.Failed("the checkout's arguments cannot be run: " + e.getMessage());
        }
        var run = new CheckoutRun(operation.ref(), lease);
        runs.begin(run);
        try {
            return outcome(runner.run(lease, arguments.asState()));
        } catch (GraphRunFailedException e) {
            if (e.getCause() instanceof CheckoutStoppedException stopped) {
                return stopped.outcome();
            }
            throw e;
        } catch (CheckpointConflictException e) {
            // refused for a lost lease, or the thread moved on under another writer: either way another node has it
            return new ExecutionOutcome.LeaseLost(e.getMessage());
        } finally {
            runs.end(run);
        }
    }

    private ExecutionOutcome outcome(RunOutcome outcome) {
        var state = new CheckoutState(outcome.state());
        return switch (outcome) {
            case RunOutcome.Paused paused when CheckoutStep.APPROVAL.key().equals(paused.nextNode()) -> {
                crashes.awaitingApproval(CheckoutStep.APPROVAL.key());
                yield new ExecutionOutcome.AwaitingApproval("amount " + state.amountText() + " over limit "
                        + CheckoutState.money(approvalLimit));
            }
            case RunOutcome.Paused paused ->
                    throw new IllegalStateException("the checkout paused before " + paused.nextNode() + ", which waits for nothing");
            case RunOutcome.Completed completed when state.rejected() -> new ExecutionOutcome.Failed(rejection(state));
            case RunOutcome.Completed completed when state.receiptSent() -> new ExecutionOutcome.Succeeded();
            case RunOutcome.Completed completed ->
                    new ExecutionOutcome.Failed("the checkout ended before its receipt was sent");
        };
    }

    private static String rejection(CheckoutState state) {
        Map<String, Object> decision = state.approval().orElseThrow();
        Object reason = decision.get("reason");
        return "rejected by " + decision.get("actor") + (reason == null ? "" : ": " + reason);
    }
}
