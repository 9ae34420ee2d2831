package dev.opledger.bench.dbos;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The closed loop opledger's {@code load --mode checkout} runs, against the peer: {@code clients}
 * virtual threads, each a user who submits a checkout under a new operation id and waits for its
 * end (the front answers when the workflow has ended, so there is nothing to poll), then submits
 * the next. A warm-up, then (with {@code hold}) {@code WARMED} and a wait for a line on standard
 * input, then the measured phase; each phase ends with every client's request answered, so nothing
 * is under way between them. Prints {@code RESULT operations=… completed=… rps=… p50_ms=…
 * p99_ms=… unexpected=… drained_s=…} as the node's driver does.
 */
final class ClosedLoad {

    static final String BODY = "{\"sku\":\"SKU-ESPRESSO\",\"quantity\":1,\"amount\":49.90,\"currency\":\"EUR\","
            + "\"recipient\":\"ann@example.com\"}";

    private record Tally(long operations, long completedInWindow, long unexpected, long[] latencies) {
    }

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final URI checkouts;
    private final int clients;

    ClosedLoad(URI server, int clients) {
        this.checkouts = server.resolve("/checkouts");
        this.clients = clients;
    }

    int run(Duration warmUp, Duration measured, boolean hold) throws Exception {
        phase(warmUp);
        if (hold) {
            System.out.println("WARMED");
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        }
        long start = System.nanoTime();
        List<Tally> tallies = phase(measured);
        double drained = (System.nanoTime() - start) / 1e9;
        long operations = tallies.stream().mapToLong(Tally::operations).sum();
        long completed = tallies.stream().mapToLong(Tally::completedInWindow).sum();
        long unexpected = tallies.stream().mapToLong(Tally::unexpected).sum();
        long[] latencies = tallies.stream().flatMapToLong(t -> Arrays.stream(t.latencies())).sorted().toArray();
        System.out.println(String.format(Locale.ROOT,
                "RESULT operations=%d completed=%d rps=%.1f p50_ms=%.3f p99_ms=%.3f unexpected=%d drained_s=%.3f",
                operations, completed, completed / (measured.toNanos() / 1e9), millis(latencies, 50),
                millis(latencies, 99), unexpected, drained));
        return unexpected == 0 ? 0 : 1;
    }

    private List<Tally> phase(Duration length) throws Exception {
        var stop = new AtomicBoolean();
        long windowEnd = System.nanoTime() + length.toNanos();
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Tally>> running = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                running.add(threads.submit(() -> loop(stop, windowEnd)));
            }
            Thread.sleep(length); // the phase's length is the measurement, not a wait for a condition
            stop.set(true);
            List<Tally> tallies = new ArrayList<>();
            for (var future : running) {
                tallies.add(future.get());
            }
            return tallies;
        }
    }

    private Tally loop(AtomicBoolean stop, long windowEnd) throws InterruptedException {
        long operations = 0;
        long completed = 0;
        long unexpected = 0;
        var latencies = new long[1 << 12];
        int recorded = 0;
        while (!stop.get()) {
            long began = System.nanoTime();
            try {
                var request = HttpRequest.newBuilder(checkouts).timeout(Duration.ofSeconds(60))
                        .header("Content-Type", "application/json")
                        .header("Idempotency-Key", UUID.randomUUID().toString())
                        .POST(HttpRequest.BodyPublishers.ofString(BODY)).build();
                operations++;
                if (http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() != 200) {
                    unexpected++;
                    continue;
                }
            } catch (java.io.IOException e) { // counted, and the client goes on
                unexpected++;
                continue;
            }
            long ended = System.nanoTime();
            if (ended - windowEnd <= 0) {
                completed++;
            }
            if (recorded == latencies.length) {
                latencies = Arrays.copyOf(latencies, latencies.length * 2);
            }
            latencies[recorded++] = ended - began;
        }
        return new Tally(operations, completed, unexpected, Arrays.copyOf(latencies, recorded));
    }

    /** Nearest rank, as the node's driver and PostgreSQL's percentile_disc compute it; {@code sorted} ascending. */
    static double millis(long[] sorted, double percentile) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(percentile / 100 * sorted.length);
        return sorted[Math.max(rank, 1) - 1] / 1e6;
    }
}
