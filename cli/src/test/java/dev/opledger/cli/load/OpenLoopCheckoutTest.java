package dev.opledger.cli.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.opledger.cli.http.NodeClient;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class OpenLoopCheckoutTest {

    private static final Duration SLOW = Duration.ofMillis(300);

    @Test
    void arrivalsComeAtTheRateHoweverSlowlyTheNodeAnswers() throws Exception {
        OpenLoopResult result;
        try (var node = SlowNode.start(SLOW); var client = new NodeClient(node.uri())) {
            var users = new CheckoutLoad(client, 2, Duration.ofMillis(1), Duration.ofSeconds(5), Duration.ofSeconds(30),
                    subject -> "t-" + subject);
            result = new OpenLoopCheckout(users, new ArrivalSchedule(50)).run(Duration.ZERO, () -> { }, Duration.ofMillis(400));

            // 2 users in a closed loop could have had at most 2 under way, and sent about 4 in 400 ms;
            // the open loop sent every one of its 20 arrivals, each answered only after 300 ms
            assertThat(node.posts.get()).isEqualTo(20);
            assertThat(node.mostAtOnce.get()).isGreaterThan(2);
        }
        assertThat(result.scheduled()).isEqualTo(20);
        assertThat(result.checkouts().operations()).isEqualTo(20);
        assertThat(result.unexpected()).isZero();
        assertThat(result.sendLagNanos()).hasSize(20);
        // from the scheduled send time: never less than the node took
        assertThat(result.checkouts().latenciesNanos()).hasSize(20);
        assertThat(Arrays.stream(result.checkouts().latenciesNanos()).min().orElseThrow()).isGreaterThanOrEqualTo(SLOW.toNanos());
        // only what ended within the 400 ms counts as completed: the first few of 20
        assertThat(result.checkouts().completedInWindow()).isLessThan(20);
        assertThat(result.line()).startsWith("RESULT operations=20 ").contains(" rate=50.0 scheduled=20 send_lag_p99_ms=");
    }

    @Test
    void aPhaseDrainsEveryArrivalItSentAndTheWarmUpIsNotCounted() throws Exception {
        var atWarmUpEnd = new AtomicInteger(-1);
        OpenLoopResult result;
        try (var node = SlowNode.start(Duration.ofMillis(100)); var client = new NodeClient(node.uri())) {
            var users = new CheckoutLoad(client, 1, Duration.ofMillis(1), Duration.ofSeconds(5), Duration.ofSeconds(30), s -> "t");
            result = new OpenLoopCheckout(users, new ArrivalSchedule(40))
                    .run(Duration.ofMillis(100), () -> atWarmUpEnd.set(node.inFlight.get() * 1000 + node.posts.get()), Duration.ofMillis(200));
        }
        // nothing under way when the warm-up handed over, and its 4 arrivals all sent
        assertThat(atWarmUpEnd.get()).isEqualTo(4);
        assertThat(result.checkouts().operations()).isEqualTo(8);
    }

    @Test
    void arrivalsAreSpreadOverTheNodesInTurn() throws Exception {
        try (var first = SlowNode.start(Duration.ZERO); var second = SlowNode.start(Duration.ZERO);
                var one = new NodeClient(first.uri()); var two = new NodeClient(second.uri())) {
            var users = new CheckoutLoad(List.of(one, two), 4, Duration.ofMillis(1), Duration.ofSeconds(5), Duration.ofSeconds(30),
                    s -> "t-" + s);
            OpenLoopResult result = new OpenLoopCheckout(users, new ArrivalSchedule(100)).run(Duration.ZERO, () -> { }, Duration.ofMillis(200));

            assertThat(result.checkouts().operations()).isEqualTo(20);
            assertThat(first.posts.get()).isEqualTo(10);
            assertThat(second.posts.get()).isEqualTo(10);
        }
    }

    @Test
    void theScheduleIsFixedByTheRateAlone() {
        var fifty = new ArrivalSchedule(50);
        assertThat(fifty.offsetNanos(0)).isZero();
        assertThat(fifty.offsetNanos(1)).isEqualTo(20_000_000L);
        assertThat(fifty.offsetNanos(19)).isEqualTo(380_000_000L);
        assertThat(fifty.arrivalsWithin(Duration.ofMillis(400))).isEqualTo(20);
        assertThat(new ArrivalSchedule(10).arrivalsWithin(Duration.ofSeconds(1))).as("the one due at 1 s is the next window's").isEqualTo(10);
        assertThat(new ArrivalSchedule(0.5).arrivalsWithin(Duration.ofSeconds(3))).isEqualTo(2);
        assertThat(new ArrivalSchedule(3).arrivalsWithin(Duration.ZERO)).isZero();
        long[] offsets = new long[7];
        var three = new ArrivalSchedule(3);
        Arrays.setAll(offsets, i -> three.offsetNanos(i));
        assertThat(offsets).containsExactly(0L, 333_333_333L, 666_666_667L, 1_000_000_000L, 1_333_333_333L, 1_666_666_667L, 2_000_000_000L);
        assertThatThrownBy(() -> new ArrivalSchedule(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ArrivalSchedule(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Answers every waiting submission 202 SUCCEEDED after {@code delay}, counting how many it holds at once. */
    private static final class SlowNode implements AutoCloseable {

        final AtomicInteger posts = new AtomicInteger();
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger mostAtOnce = new AtomicInteger();
        private final HttpServer server;
        private final Duration delay;

        private SlowNode(HttpServer server, Duration delay) {
            this.server = server;
            this.delay = delay;
        }

        static SlowNode start(Duration delay) throws IOException {
            var node = new SlowNode(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0), delay);
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
            posts.incrementAndGet();
            int now = inFlight.incrementAndGet();
            mostAtOnce.accumulateAndGet(now, Math::max);
            try {
                Thread.sleep(delay); // the node's run, as the client sees it
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = "{\"status\":\"SUCCEEDED\"}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            inFlight.decrementAndGet();
            exchange.sendResponseHeaders(202, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
