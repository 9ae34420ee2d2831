package dev.opledger.cli.load;

import dev.opledger.cli.http.NodeClient;
import dev.opledger.cli.http.Reply;
import dev.opledger.operation.OperationId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A closed loop of {@code clients} virtual threads, each a user who submits a {@code checkout}
 * and waits until it has left ACCEPTED and RUNNING, then submits the next. At most {@code clients}
 * operations are under way at once, so the time to SUCCEEDED is the node's at that concurrency,
 * not the length of a queue.
 *
 * <p>With a positive {@code wait} the submission carries {@code Prefer: wait} (RFC 7240): the
 * node answers it when the operation has settled, so no status read is needed; only one that is
 * still under way after the wait is read again ({@code GET /v1/operations/{id}}, with the same
 * preference). With no wait the client polls instead, as against a node without {@code Prefer}:
 *
 * <p>The reads are load on the node they measure, so they thin out as an operation takes longer:
 * the wait before the next read is a fifth of the time the operation has taken so far, and never
 * shorter than {@code pollInterval}. A read every 20 ms would be 50 reads a second per user
 * whatever the operation costs; this way an operation is seen ended at most about a fifth of its
 * time late, with some 20 reads for one that takes seconds.
 *
 * <p>When a phase's time is up every client still sees its operation through to its end (a drain),
 * so between phases nothing is under way: a caller can read database counters there and know that
 * the operations of the next phase, and only those, move them.
 */
public final class CheckoutLoad {

    /** Statuses of an operation still on its way; any other ends the wait. */
    static final Set<String> UNDER_WAY = Set.of("ACCEPTED", "RUNNING");

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final byte[] BODY = CheckoutBody.bytes();

    private final NodeClient node;
    private final List<String> tokens = new ArrayList<>();
    private final Duration pollInterval;
    private final Duration wait;
    private final Duration patience;

    private record Tally(long operations, long completedInWindow, long reads, long[] latencies,
            Map<String, Long> otherEnds) {
    }

    /**
     * @param wait the {@code Prefer: wait} of every request; zero: none, the client polls every
     *     {@code pollInterval} or more
     * @param patience how long one operation may take before the client gives up on it (an
     *     unexpected end, {@code TIMED_OUT})
     */
    public CheckoutLoad(NodeClient node, int clientCount, Duration pollInterval, Duration wait, Duration patience,
            Function<String, String> tokenFor) {
        this.node = node;
        this.pollInterval = pollInterval;
        this.wait = wait;
        this.patience = patience;
        for (int i = 0; i < clientCount; i++) {
            tokens.add(tokenFor.apply("checkout-" + i + "-" + System.nanoTime()));
        }
    }

    /** Warms up and drains, runs {@code afterWarmUp}, then measures and drains. */
    public CheckoutResult run(Duration warmUp, Runnable afterWarmUp, Duration measured) throws Exception {
        phase(warmUp);
        afterWarmUp.run();
        long start = System.nanoTime();
        List<Tally> tallies = phase(measured);
        double window = measured.toNanos() / 1e9;
        double drained = (System.nanoTime() - start) / 1e9;
        long operations = 0;
        long completed = 0;
        long reads = 0;
        Map<String, Long> otherEnds = new TreeMap<>();
        for (Tally tally : tallies) {
            operations += tally.operations();
            completed += tally.completedInWindow();
            reads += tally.reads();
            tally.otherEnds().forEach((end, count) -> otherEnds.merge(end, count, Long::sum));
        }
        long[] latencies = tallies.stream().flatMapToLong(t -> Arrays.stream(t.latencies())).toArray();
        return new CheckoutResult(operations, completed, reads, window, drained, latencies, otherEnds);
    }

    private List<Tally> phase(Duration length) throws Exception {
        long windowEnd = System.nanoTime() + length.toNanos();
        return LoadPhase.run(length, tokens.stream()
                .map(token -> (LoadPhase.Loop<Tally>) stop -> loop(token, stop, windowEnd))
                .toList());
    }

    private Tally loop(String token, AtomicBoolean stop, long windowEnd) throws InterruptedException {
        long operations = 0;
        long completed = 0;
        long reads = 0;
        var latencies = new long[1 << 12];
        int recorded = 0;
        Map<String, Long> otherEnds = new TreeMap<>();
        while (!stop.get()) {
            var operationId = OperationId.random();
            long began = System.nanoTime();
            String end;
            try {
                Reply claim = node.submitUnattested(token, operationId, BODY, wait);
                if (claim.status() != 202) {
                    otherEnds.merge("HTTP_" + claim.status(), 1L, Long::sum);
                    continue;
                }
                operations++;
                end = "TIMED_OUT";
                Optional<String> status = statusOf(claim);
                while (status.isPresent() && UNDER_WAY.contains(status.get())
                        && System.nanoTime() - began < patience.toNanos()) {
                    if (!wait.isPositive()) {
                        Thread.sleep(nextRead(pollInterval, Duration.ofNanos(System.nanoTime() - began)));
                    }
                    reads++;
                    status = statusOf(node.operation(token, operationId, wait));
                }
                if (status.isEmpty() || !UNDER_WAY.contains(status.get())) {
                    end = status.orElse("UNREADABLE");
                }
            } catch (RuntimeException e) { // the node did not answer: counted, and the client goes on
                otherEnds.merge("TRANSPORT", 1L, Long::sum);
                continue;
            }
            long ended = System.nanoTime();
            if (!end.equals("SUCCEEDED")) {
                otherEnds.merge(end, 1L, Long::sum);
                continue;
            }
            if (ended - windowEnd <= 0) {
                completed++;
            }
            if (recorded == latencies.length) {
                latencies = Arrays.copyOf(latencies, latencies.length * 2);
            }
            latencies[recorded++] = ended - began;
        }
        return new Tally(operations, completed, reads, Arrays.copyOf(latencies, recorded), otherEnds);
    }

    /** How long to wait before reading an operation again that has taken {@code taken} so far. */
    static Duration nextRead(Duration shortest, Duration taken) {
        Duration fifth = taken.dividedBy(5);
        return fifth.compareTo(shortest) > 0 ? fifth : shortest;
    }

    /** The {@code status} of a 200 or 202 answer (a read, a submission); empty for anything else. */
    static Optional<String> statusOf(Reply reply) {
        if (reply.status() != 200 && reply.status() != 202) {
            return Optional.empty();
        }
        try {
            JsonNode status = JSON.readTree(reply.body()).get("status");
            return status != null && status.isString() ? Optional.of(status.asString()) : Optional.empty();
        } catch (JacksonException e) {
            return Optional.empty();
        }
    }
}
