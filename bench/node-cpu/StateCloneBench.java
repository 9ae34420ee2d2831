package dev.opledger.graph;

import java.lang.management.ManagementFactory;
import java.util.List;
import org.bsc.langgraph4j.state.AgentState;

/**
 * langgraph4j's clone of a checkout's graph state (issue 13): through its serializer's bytes (an
 * ObjectOutputStream of the JSON text, then read back: what every clone did before) against
 * {@link JsonStateSerializer#cloneObject}'s copy, alternating in rounds on one thread, on the four
 * states a checkout's thread holds (as AgentState, as stored in graph_checkpoint by a benchmark run). CPU is this
 * thread's (ThreadMXBean). Needs the node's classes and libraries:
 * <pre>
 * CP="backend/target/classes:$EXTRACTED_NODE_JAR/lib/*"   # java -Djarmode=tools -jar ui/target/opledger.jar extract
 * javac -d /tmp/scb -cp "$CP" bench/node-cpu/StateCloneBench.java
 * java -cp "/tmp/scb:$CP" dev.opledger.graph.StateCloneBench ROUNDS CLONES   # e.g. 7 200000
 * </pre>
 */
public class StateCloneBench {

    private static final List<String> STATES = List.of(
            """
            {"sku": "SKU-ESPRESSO", "amount": 49.9, "currency": "EUR", "quantity": 1, "recipient": "ann@example.com"}""",
            """
            {"sku": "SKU-ESPRESSO", "amount": 49.9, "currency": "EUR", "quantity": 1, "recipient": "ann@example.com",
             "reservation": {"reservationId": "49329c81-461a-469e-81db-135e4703c84d"}, "needsApproval": false}""",
            """
            {"sku": "SKU-ESPRESSO", "amount": 49.9, "payment": {"paymentId": "360eaaeb-6eed-4a76-a07b-d835527c05b4"},
             "currency": "EUR", "quantity": 1, "recipient": "ann@example.com",
             "reservation": {"reservationId": "49329c81-461a-469e-81db-135e4703c84d"}, "needsApproval": false}""",
            """
            {"sku": "SKU-ESPRESSO", "amount": 49.9, "payment": {"paymentId": "360eaaeb-6eed-4a76-a07b-d835527c05b4"},
             "receipt": {"messageId": "0a818928-4c05-4a17-b3df-b0eae67099d4"}, "currency": "EUR", "quantity": 1,
             "recipient": "ann@example.com", "reservation": {"reservationId": "49329c81-461a-469e-81db-135e4703c84d"},
             "needsApproval": false}""");

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        int clones = Integer.parseInt(args[1]);
        var serializer = new JsonStateSerializer<>(AgentState::new);
        List<AgentState> states = STATES.stream().map(json -> {
            try {
                return serializer.read(json);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).toList();
        var threads = ManagementFactory.getThreadMXBean();
        long sink = 0;
        System.out.println("| round | through bytes ns/clone | copy ns/clone | ratio |");
        System.out.println("|---|---|---|---|");
        for (int round = 0; round <= rounds; round++) {
            long bytes0 = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < clones; i++) {
                sink += serializer.bytesToObject(serializer.objectToBytes(states.get(i & 3))).data().size();
            }
            long copy0 = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < clones; i++) {
                sink += serializer.cloneObject(states.get(i & 3)).data().size();
            }
            long end = threads.getCurrentThreadCpuTime();
            double viaBytes = (copy0 - bytes0) / (double) clones;
            double copy = (end - copy0) / (double) clones;
            // round 0 is the warm-up
            System.out.printf("| %s | %.0f | %.0f | %.3f |%n", round == 0 ? "warm-up" : round, viaBytes, copy, copy / viaBytes);
        }
        System.out.println("(" + sink + ")");
    }
}
