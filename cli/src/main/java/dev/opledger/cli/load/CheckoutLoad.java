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

    private final List<NodeClient> nodes;
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
        this(List.of(node), clientCount, pollInterval, wait, patience, tokenFor);
    }

    /**
     * Users spread over several nodes of one database: user {@code i} submits to and reads from
     * {@code nodes[i % nodes.size()]} only (its operations may run on any node's workers).
     */
    public CheckoutLoad(List<NodeClient> nodes, int clientCount, Duration pollInterval, Duration wait, Duration patience,
            Function<String, String> tokenFor) {
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("no node to load");
        }
        this.nodes = List.copyOf(nodes);
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
        var loops = new ArrayList<LoadPhase.Loop<Tally>>();
        for (int i = 0; i < tokens.size(); i++) {
            String token = tokens.get(i);
            NodeClient node = nodeOf(i);
            loops.add(stop -> loop(node, token, stop, windowEnd));
        }
        return LoadPhase.run(length, loops);
    }

    /** The node user {@code i} talks to. */
    NodeClient nodeOf(int user) {
        return nodes.get(user % nodes.size());
    }

    /** The bearer token of user {@code i}, one of {@code clientCount}. */
    String tokenOf(int user) {
        return tokens.get(user % tokens.size());
    }

    private Tally loop(NodeClient node, String token, AtomicBoolean stop, long windowEnd) throws InterruptedException {
        long operations = 0;
        long completed = 0;
        long reads = 0;
        var latencies = new long[1 << 12];
        int recorded = 0;
        Map<String, Long> otherEnds = new TreeMap<>();
        while (!stop.get()) {
            long began = System.nanoTime();
            Outcome outcome = follow(node, token, began);
            reads += outcome.reads();
            if (outcome.claimed()) {
                operations++;
            }
            String end = outcome.end();
            long ended = outcome.endedNanos();
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

    /**
     * How one checkout ended: {@code claimed} when its submission was answered 202, {@code end} its
     * last status (or {@code HTTP_<code>}, {@code TIMED_OUT}, {@code TRANSPORT}, {@code UNREADABLE}),
     * the status reads it took and when its end was seen ({@link System#nanoTime()}).
     */
    record Outcome(boolean claimed, String end, long reads, long endedNanos) {
    }

    /**
     * Submits one new checkout on {@code node} and follows it to its end: with the {@code Prefer:
     * wait}, or polling when there is none. {@code began} is when the attempt counts from (the
     * patience runs from it): now for a closed loop, the scheduled send time for an open one.
     */
    Outcome follow(NodeClient on, String token, long began) throws InterruptedException {
        var operationId = OperationId.random();
        long reads = 0;
        boolean claimed = false;
        try {
            Reply claim = on.submitUnattested(token, operationId, BODY, wait);
            if (claim.status() != 202) {
                return new Outcome(false, "HTTP_" + claim.status(), 0, System.nanoTime());
            }
            claimed = true;
            Optional<String> status = statusOf(claim);
            while (status.isPresent() && UNDER_WAY.contains(status.get())
                    && System.nanoTime() - began < patience.toNanos()) {
                if (!wait.isPositive()) {
                    Thread.sleep(nextRead(pollInterval, Duration.ofNanos(System.nanoTime() - began)));
                }
                reads++;
                status = statusOf(on.operation(token, operationId, wait));
            }
            String end = status.isPresent() && UNDER_WAY.contains(status.get()) ? "TIMED_OUT" : status.orElse("UNREADABLE");
            return new Outcome(true, end, reads, System.nanoTime());
        } catch (RuntimeException e) { // the node did not answer: counted, and the client goes on
            return new Outcome(claimed, "TRANSPORT", reads, System.nanoTime());
        }
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
