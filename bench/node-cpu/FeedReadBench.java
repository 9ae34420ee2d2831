package dev.opledger.feed.internal;

import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import tools.jackson.databind.json.JsonMapper;

/**
 * Thread CPU per checkout's nine events read by the feed: the whole published schema (as before
 * commit "feed: check an event against the schema resolved for its type") against FeedEvents,
 * alternating in one JVM. In FeedEvents' package, to reach it:
 * <pre>
 * CP="backend/target/classes:$EXTRACTED_NODE_JAR/lib/*"   # java -Djarmode=tools -jar ui/target/opledger.jar extract
 * javac -d /tmp/frb -cp "$CP" bench/node-cpu/FeedReadBench.java && java -cp "/tmp/frb:$CP" dev.opledger.feed.internal.FeedReadBench 2000
 * </pre>
 */
public class FeedReadBench {
    public static void main(String[] args) throws Exception {
        var json = JsonMapper.builder().build();
        Schema whole;
        try (var in = FeedEvents.class.getClassLoader().getResourceAsStream("events/operation-event.schema.json")) {
            whole = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(json.readTree(in));
        }
        var events = new FeedEvents();
        // one checkout's events, as the relay writes them
        List<byte[]> checkout = new ArrayList<>();
        String op = UUID.randomUUID().toString();
        String base = "\"operationId\":\"" + op + "\",\"subjectId\":\"ann\",\"occurredAt\":\"2026-12-04T03:00:00.123456Z\"";
        checkout.add(("{\"eventId\":\"" + UUID.randomUUID() + "\"," + base + ",\"type\":\"OperationAccepted\",\"sequence\":1,\"status\":\"ACCEPTED\",\"tool\":null,\"stepKey\":null,\"commandType\":\"checkout\"}").getBytes(StandardCharsets.UTF_8));
        checkout.add(("{\"eventId\":\"" + UUID.randomUUID() + "\"," + base + ",\"type\":\"OperationRunning\",\"sequence\":2,\"status\":\"RUNNING\",\"tool\":null,\"stepKey\":null,\"runCount\":1}").getBytes(StandardCharsets.UTF_8));
        int seq = 3;
        for (String step : List.of("reserve", "capture", "receipt")) {
            checkout.add(("{\"eventId\":\"" + UUID.randomUUID() + "\"," + base + ",\"type\":\"AgentToolStarted\",\"sequence\":" + seq++ + ",\"status\":\"STARTED\",\"tool\":\"" + step + "_tool\",\"stepKey\":\"" + step + "\",\"server\":\"reference\",\"attempt\":1}").getBytes(StandardCharsets.UTF_8));
            checkout.add(("{\"eventId\":\"" + UUID.randomUUID() + "\"," + base + ",\"type\":\"AgentToolCompleted\",\"sequence\":" + seq++ + ",\"status\":\"SUCCEEDED\",\"tool\":\"" + step + "_tool\",\"stepKey\":\"" + step + "\",\"server\":\"reference\",\"attempt\":1}").getBytes(StandardCharsets.UTF_8));
        }
        checkout.add(("{\"eventId\":\"" + UUID.randomUUID() + "\"," + base + ",\"type\":\"OperationSucceeded\",\"sequence\":" + seq + ",\"status\":\"SUCCEEDED\",\"tool\":null,\"stepKey\":null}").getBytes(StandardCharsets.UTF_8));
        for (byte[] e : checkout) {
            if (!whole.validate(json.readTree(e)).isEmpty()) throw new IllegalStateException(new String(e) + whole.validate(json.readTree(e)));
            events.read(e);
        }
        var mx = ManagementFactory.getThreadMXBean();
        int n = Integer.parseInt(args.length > 0 ? args[0] : "2000");
        long sink = 0;
        for (int round = 0; round < 12; round++) {
            for (String variant : List.of("whole", "resolved")) {
                long t0 = mx.getCurrentThreadCpuTime();
                for (int i = 0; i < n; i++) {
                    for (byte[] e : checkout) {
                        if (variant.equals("whole")) {
                            sink += whole.validate(json.readTree(e)).size();
                        } else {
                            sink += events.read(e).sequence();
                        }
                    }
                }
                long t1 = mx.getCurrentThreadCpuTime();
                System.out.printf("round %d %s: %.1f us per checkout (%d events)%n", round, variant, (t1 - t0) / 1e3 / n, checkout.size());
            }
        }
        System.out.println(sink);
    }
}
