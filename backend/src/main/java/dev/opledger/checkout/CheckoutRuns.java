package dev.opledger.checkout;

import dev.opledger.graph.GraphThreadBusyException;
import dev.opledger.operation.OperationId;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.bsc.langgraph4j.RunnableConfig;

/**
 * The runs under way in this node, by operation. The graph is compiled once and shared, so a node
 * finds its run through the thread id langgraph4j hands it ({@code thread_id = operationId}).
 */
final class CheckoutRuns {

    private final Map<OperationId, CheckoutRun> runs = new ConcurrentHashMap<>();

    void begin(CheckoutRun run) {
        if (runs.putIfAbsent(run.operationId(), run) != null) {
            throw new GraphThreadBusyException(run.operationId());
        }
    }

    void end(CheckoutRun run) {
        runs.remove(run.operationId(), run);
    }

    CheckoutRun of(RunnableConfig config) {
        OperationId operationId = OperationId.parse(config.threadId()
                .orElseThrow(() -> new IllegalStateException("a checkout node ran without a thread id")));
        CheckoutRun run = runs.get(operationId);
        if (run == null) {
            throw new IllegalStateException("operation " + operationId + " is not being run by CheckoutOperation");
        }
        return run;
    }
}
