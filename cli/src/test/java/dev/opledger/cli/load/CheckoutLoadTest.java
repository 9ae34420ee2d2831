package dev.opledger.cli.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.opledger.cli.http.NodeClient;
import dev.opledger.cli.http.Reply;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CheckoutLoadTest {

    private Node node;

    @BeforeEach
    void start() throws IOException {
        node = Node.start();
    }

    @AfterEach
    void stop() {
        node.close();
    }

    @Test
    void followsEveryMeasuredOperationToItsEndAndCountsWhatItSent() throws Exception {
        var atWarmUpEnd = new AtomicReference<Map<String, Integer>>();
        var posted = new AtomicInteger();
        var read = new AtomicInteger();
        CheckoutResult result;
        try (var client = new NodeClient(node.uri())) {
            var load = new CheckoutLoad(client, 3, Duration.ofMillis(1), Duration.ZERO, Duration.ofSeconds(30), subject -> "token-" + subject);
            result = load.run(Duration.ofMillis(50), () -> {
                atWarmUpEnd.set(Map.copyOf(node.readsByOperation));
                posted.set(node.posts.get());
                read.set(node.gets.get());
            }, Duration.ofMillis(200));
        }

        // the warm-up drained: nothing it claimed was still under way when the measurement began
        assertThat(atWarmUpEnd.get()).allSatisfy((operation, reads) -> assertThat(reads).isGreaterThanOrEqualTo(Node.READS_TO_END));
        assertThat(result.operations()).isPositive().isEqualTo(node.posts.get() - posted.get());
        assertThat(result.statusReads()).isEqualTo(node.gets.get() - read.get());
        // and the measured phase drained too: every operation read until it succeeded, none read after
        assertThat(node.readsByOperation).allSatisfy((operation, reads) -> assertThat(reads).isEqualTo(Node.READS_TO_END));
        assertThat(result.statusReads()).isEqualTo(result.operations() * Node.READS_TO_END);
        assertThat(result.latenciesNanos()).hasSize((int) result.operations());
        assertThat(result.completedInWindow()).isLessThanOrEqualTo(result.operations());
        assertThat(result.unexpected()).isZero();
    }

    @Test
    void anOperationThatDoesNotSucceedIsUnexpected() throws Exception {
        node.end = "NEEDS_REVIEW";
        CheckoutResult result;
        try (var client = new NodeClient(node.uri())) {
            result = new CheckoutLoad(client, 2, Duration.ofMillis(1), Duration.ZERO, Duration.ofSeconds(30), subject -> "t")
                    .run(Duration.ZERO, () -> { }, Duration.ofMillis(100));
        }

        assertThat(result.operations()).isPositive();
        assertThat(result.otherEnds()).containsOnlyKeys("NEEDS_REVIEW");
        assertThat(result.unexpected()).isEqualTo(result.operations());
        assertThat(result.completedInWindow()).isZero();
        assertThat(result.latenciesNanos()).isEmpty();
    }

    @Test
    void withAWaitTheClientAsksTheNodeToAnswerAtTheEndInsteadOfPolling() throws Exception {
        CheckoutResult result;
        try (var client = new NodeClient(node.uri())) {
            result = new CheckoutLoad(client, 2, Duration.ofMillis(1), Duration.ofSeconds(5), Duration.ofSeconds(30),
                    subject -> "t").run(Duration.ZERO, () -> { }, Duration.ofMillis(200));
        }

        // the fake node answers a waiting submission RUNNING (its wait ran out), a waiting read with the end
        assertThat(result.operations()).isPositive();
        assertThat(result.statusReads()).as("one waiting read each, no polling").isEqualTo(result.operations());
        assertThat(node.prefers).containsOnly("wait=5");
        assertThat(node.prefers).hasSize((int) (node.posts.get() + node.gets.get()));
        assertThat(result.unexpected()).isZero();
    }

    @Test
    void readsThinOutAsAnOperationTakesLonger() {
        Duration shortest = Duration.ofMillis(20);

        assertThat(CheckoutLoad.nextRead(shortest, Duration.ZERO)).isEqualTo(shortest);
        assertThat(CheckoutLoad.nextRead(shortest, Duration.ofMillis(100))).isEqualTo(shortest);
        assertThat(CheckoutLoad.nextRead(shortest, Duration.ofMillis(150))).isEqualTo(Duration.ofMillis(30));
        assertThat(CheckoutLoad.nextRead(shortest, Duration.ofSeconds(3))).isEqualTo(Duration.ofMillis(600));
    }

    @Test
    void theStatusComesFromAnOkAnswerOnly() {
        assertThat(CheckoutLoad.statusOf(new Reply(200, Map.of(), "{\"operationId\":\"x\",\"status\":\"RUNNING\"}")))
                .contains("RUNNING");
        assertThat(CheckoutLoad.statusOf(new Reply(202, Map.of(), "{\"status\":\"SUCCEEDED\"}"))).contains("SUCCEEDED");
        assertThat(CheckoutLoad.statusOf(new Reply(404, Map.of(), "{\"status\":404}"))).isEmpty();
        assertThat(CheckoutLoad.statusOf(new Reply(200, Map.of(), "{\"status\":3}"))).isEmpty();
        assertThat(CheckoutLoad.statusOf(new Reply(200, Map.of(), "not json"))).isEmpty();
        assertThat(CheckoutLoad.statusOf(new Reply(200, Map.of(), "{}"))).isEmpty();
    }

    /**
     * Accepts every claim; an operation reads ACCEPTED, then RUNNING, then {@link #end}. With a
     * {@code Prefer} header a claim is answered RUNNING (as when its wait ran out) and a read {@link #end}.
     */
    private static final class Node implements AutoCloseable {

        static final int READS_TO_END = 3;

        final Map<String, Integer> readsByOperation = new ConcurrentHashMap<>();
        final AtomicInteger posts = new AtomicInteger();
        final AtomicInteger gets = new AtomicInteger();
        final List<String> prefers = new java.util.concurrent.CopyOnWriteArrayList<>();
        volatile String end = "SUCCEEDED";
        private final HttpServer server;

        private Node(HttpServer server) {
            this.server = server;
        }

        static Node start() throws IOException {
            var node = new Node(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0));
            node.server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            node.server.createContext("/v1/operations", node::handle);
            node.server.start();
            return node;
        }

        URI uri() {
            return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        }

        private void handle(HttpExchange exchange) throws IOException {
            exchange.getRequestBody().readAllBytes();
            String prefer = exchange.getRequestHeaders().getFirst("Prefer");
            if (prefer != null) {
                prefers.add(prefer);
                boolean post = exchange.getRequestMethod().equals("POST");
                (post ? posts : gets).incrementAndGet();
                reply(exchange, post ? 202 : 200, post ? "RUNNING" : end);
                return;
            }
            if (exchange.getRequestMethod().equals("POST")) {
                String id = exchange.getRequestHeaders().getFirst("Idempotency-Key");
                readsByOperation.put(id, 0);
                posts.incrementAndGet();
                reply(exchange, 202, "ACCEPTED");
                return;
            }
            String id = exchange.getRequestURI().getPath().substring("/v1/operations/".length());
            gets.incrementAndGet();
            int reads = readsByOperation.merge(id, 1, Integer::sum);
            reply(exchange, 200, List.of("ACCEPTED", "RUNNING", end).get(Math.min(reads, READS_TO_END) - 1));
        }

        private static void reply(HttpExchange exchange, int status, String operationStatus) throws IOException {
            byte[] body = ("{\"status\":\"" + operationStatus + "\"}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
