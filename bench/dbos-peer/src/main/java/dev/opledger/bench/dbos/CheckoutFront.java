package dev.opledger.bench.dbos;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.dbos.transact.DBOS;
import dev.dbos.transact.StartWorkflowOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import tools.jackson.databind.json.JsonMapper;

/**
 * The peer's HTTP front, the JDK's own server on virtual threads: {@code POST /checkouts} with an
 * {@code Idempotency-Key} (a UUID, the operation's id) and the order as JSON starts the workflow
 * with that id as its workflow id — DBOS's own idempotency: a repeat joins the workflow that
 * exists — and answers when it has ended: 200 with the receipt, 422 when a step failed.
 * {@code GET /health} answers 200.
 */
final class CheckoutFront implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpServer server;
    private final DBOS dbos;
    private final Checkout checkout;

    CheckoutFront(DBOS dbos, Checkout checkout, String host, int port) throws IOException {
        this.dbos = dbos;
        this.checkout = checkout;
        this.server = HttpServer.create(new InetSocketAddress(host, port), 256);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/health", exchange -> {
            try (exchange) { // the JDK's server sends the answer when the exchange is closed
                answer(exchange, 200, Map.of("status", "UP"));
            }
        });
        server.createContext("/checkouts", this::checkout);
        server.start();
    }

    private void checkout(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!"POST".equals(exchange.getRequestMethod())) {
                answer(exchange, 405, Map.of("error", "POST only"));
                return;
            }
            String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
            Order order;
            try {
                UUID.fromString(key == null ? "" : key);
                order = JSON.readValue(exchange.getRequestBody(), Order.class);
            } catch (RuntimeException e) {
                answer(exchange, 400, Map.of("error", "an Idempotency-Key UUID and an order are required: " + e.getMessage()));
                return;
            }
            try {
                Receipt receipt = dbos.<Receipt, RuntimeException>startWorkflow(() -> checkout.checkout(order),
                        new StartWorkflowOptions().withWorkflowId(key)).getResult();
                answer(exchange, 200, Map.of("status", "SUCCEEDED", "operationId", key, "receipt", receipt));
            } catch (Exception e) { // DBOS rethrows the step's own exception, checked ones too
                answer(exchange, 422, Map.of("status", "FAILED", "operationId", key, "error", String.valueOf(e.getMessage())));
            }
        }
    }

    private static void answer(HttpExchange exchange, int status, Object body) throws IOException {
        byte[] bytes = JSON.writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
