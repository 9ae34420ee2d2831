package dev.opledger.checkout;

import dev.opledger.claim.LeasedOperation;
import dev.opledger.claim.LifecycleService;
import dev.opledger.effect.CrashPoints;
import dev.opledger.effect.EffectGateway;
import dev.opledger.graph.CheckpointConflictException;
import dev.opledger.graph.ExecutionOutcome;
import dev.opledger.graph.GraphOptions;
import dev.opledger.graph.GraphRunner;
import dev.opledger.graph.GraphService;
import dev.opledger.graph.GraphStep;
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
    private final CrashPoints crashes;

    CheckoutOperation(GraphService graphs, EffectGateway gateway, LifecycleService lifecycle,
            CheckoutProperties properties, CrashPoints crashes,
            ObjectProvider<CheckoutPlanner> planner) {
        this.crashes = crashes;
        BigDecimal approvalLimit = properties.approvalLimit();
        var effects = new CheckoutEffects(gateway, properties.mcpServer());
        Map<CheckoutStep, AsyncNodeActionWithConfig<CheckoutState>> nodes = new LinkedHashMap<>();
        nodes.put(CheckoutStep.RESERVE, GraphStep.node(new ReserveNode(effects, approvalLimit)));
        nodes.put(CheckoutStep.APPROVAL, GraphStep.node(new AwaitApprovalNode(lifecycle, approvalLimit)));
        nodes.put(CheckoutStep.CAPTURE, GraphStep.node(new CaptureNode(effects)));
        nodes.put(CheckoutStep.POINTS, GraphStep.node(new CreditPointsNode(effects)));
        nodes.put(CheckoutStep.SHIPPING, GraphStep.node(new SetShippingNode(effects)));
        nodes.put(CheckoutStep.WRAP, GraphStep.node(new WrapGiftNode(effects)));
        nodes.put(CheckoutStep.RECEIPT, GraphStep.node(new SendReceiptNode(effects)));
        nodes.put(CheckoutStep.REFUND, GraphStep.node(new RefundNode(effects)));
        nodes.put(CheckoutStep.RELEASE, GraphStep.node(new ReleaseNode(effects)));
        this.runner = graphs.runner(CheckoutGraph.build(nodes, planner.getIfAvailable(FixedCheckoutPlanner::new)),
                GraphOptions.none());
    }

    @Override
    public java.util.Set<String> compensationSteps() {
        return java.util.Set.of(CheckoutStep.REFUND.key(), CheckoutStep.RELEASE.key());
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
        try {
            return outcome(runner.run(lease, arguments.asState(), operation.firstLease()));
        } catch (CheckpointConflictException e) {
            // refused for a lost lease, or the thread moved on under another writer: either way another node has it
            return new ExecutionOutcome.LeaseLost(e.getMessage());
        }
    }

    private ExecutionOutcome outcome(RunOutcome outcome) {
        var state = new CheckoutState(outcome.state());
        return switch (outcome) {
            case RunOutcome.Stopped stopped when stopped.outcome() instanceof ExecutionOutcome.AwaitingApproval -> {
                crashes.awaitingApproval(CheckoutStep.APPROVAL.key());
                yield stopped.outcome();
            }
            // a step ended the run: FAILED, NEEDS_REVIEW or the lease lost, as the step said
            case RunOutcome.Stopped stopped -> stopped.outcome();
            case RunOutcome.Paused paused ->
                    throw new IllegalStateException("the checkout paused before " + paused.nextNode() + ", which waits for nothing");
            // a step after the reservation failed and the compensations ran: the failure is the outcome
            case RunOutcome.Completed completed when state.failed() ->
                    new ExecutionOutcome.Failed(state.failure().orElseThrow() + compensationFailures(state));
            case RunOutcome.Completed completed when state.rejected() ->
                    new ExecutionOutcome.Failed(rejection(state) + compensationFailures(state));
            case RunOutcome.Completed completed when state.receiptSent() -> new ExecutionOutcome.Succeeded();
            case RunOutcome.Completed completed ->
                    new ExecutionOutcome.Failed("the checkout ended before its receipt was sent");
        };
    }

    /** Empty when every compensation that ran did its part; else what failed, after the original reason. */
    static String compensationFailures(CheckoutState state) {
        return state.refundFailure().map(reason -> "; the refund failed too (" + reason + ")").orElse("")
                + state.releaseFailure().map(reason -> "; the release failed too (" + reason + ")").orElse("");
    }

    private static String rejection(CheckoutState state) {
        Map<String, Object> decision = state.approval().orElseThrow();
        Object reason = decision.get("reason");
        return "rejected by " + decision.get("actor") + (reason == null ? "" : ": " + reason);
    }
}
