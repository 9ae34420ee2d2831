package dev.opledger.graph;

import dev.opledger.operation.OperationId;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.bsc.langgraph4j.StateGraph;
import org.bsc.langgraph4j.state.AgentState;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * A node in a JVM of its own, for {@link GraphKillIT}: runs the checkout-like graph on the
 * given database and operation, announcing each node it starts on stdout; {@code capture}
 * then waits to be killed. Arguments: JDBC URL, user, password, operationId.
 */
public final class NodeProcess {

    static final String STARTED = "node started: ";

    private NodeProcess() {
    }

    public static void main(String[] args) throws Exception {
        var dataSource = new DriverManagerDataSource(args[0], args[1], args[2]);
        var graph = new AnnouncingGraph();
        new GraphService(dataSource).runner(graph.build(), GraphOptions.none())
                .run(OperationId.parse(args[3]), Map.of("sku", "child-JVM"));
        System.exit(3); // capture never returns: reaching this is a test failure
    }

    private static final class AnnouncingGraph {

        StateGraph<AgentState> build() {
            var checkout = new CheckoutLikeGraph();
            checkout.onStart(node -> {
                System.out.println(STARTED + node);
                System.out.flush();
                if (node.equals("capture")) {
                    sleepUntilKilled();
                }
            });
            return checkout.build();
        }

        /** Blocks this node for good: the test kills the process while it is here. */
        private static void sleepUntilKilled() {
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
