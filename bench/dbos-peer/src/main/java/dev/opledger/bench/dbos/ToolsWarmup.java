package dev.opledger.bench.dbos;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The checkout's three tool calls, with the arguments {@link CheckoutWorkflow} sends, straight to
 * reference-tools from a few threads, every other checkout in the shape the node's client sends
 * ({@link ReferenceTools#callAsTheNode}): what brings the tool server's code for both clients to its
 * compiled state before the benchmark measures anything. Issue 13: without it the phase that loads the tool
 * server first (the checkout) paid its JIT compilation and ran its requests on code not yet
 * compiled, 3.1× the DBOS peer's tool-server CPU per checkout for the same calls
 * (docs/benchmarks.md, "Issue 13: the tool server's 3×").
 */
final class ToolsWarmup {

    private static final Order ORDER = new Order("SKU-ESPRESSO", 1, new BigDecimal("49.90"), "EUR", "ann@example.com");

    private final ReferenceTools tools;

    ToolsWarmup(ReferenceTools tools) {
        this.tools = tools;
    }

    void run(int checkouts, int clients) throws Exception {
        long started = System.nanoTime();
        AtomicInteger left = new AtomicInteger(checkouts);
        try (ExecutorService threads = Executors.newFixedThreadPool(clients)) {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                done.add(threads.submit(() -> {
                    int n;
                    while ((n = left.getAndDecrement()) > 0) {
                        checkout("warm-" + UUID.randomUUID(), n % 2 == 0);
                    }
                    return null;
                }));
            }
            for (Future<?> each : done) {
                each.get();
            }
        }
        System.out.printf("WARMED checkouts=%d calls=%d s=%.1f%n", checkouts, 3 * checkouts,
                (System.nanoTime() - started) / 1e9);
    }

    private void checkout(String operationId, boolean asTheNode) {
        var reserve = CheckoutWorkflow.keyed(operationId, "reserve", Map.of("sku", ORDER.sku(), "quantity", ORDER.quantity()));
        var capture = CheckoutWorkflow.keyed(operationId, "capture",
                Map.of("amount", ORDER.amount().stripTrailingZeros(), "currency", ORDER.currency()));
        var receipt = CheckoutWorkflow.plain(operationId, "receipt",
                Map.of("to", ORDER.recipient(), "text", CheckoutWorkflow.text(ORDER, "pay-" + operationId)));
        if (asTheNode) {
            tools.callAsTheNode("reserve_inventory", reserve);
            tools.callAsTheNode("capture_payment", capture);
            tools.callAsTheNode("send_message", receipt);
        } else {
            tools.call("reserve_inventory", reserve);
            tools.call("capture_payment", capture);
            tools.call("send_message", receipt);
        }
    }
}
