package dev.opledger.cli.load;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * An open loop of checkouts: arrivals at a fixed rate ({@link ArrivalSchedule}), each its own
 * virtual thread that submits a checkout and follows it to its end as a {@link CheckoutLoad} user
 * does, however many are still under way. A slow node therefore gets a queue, not fewer arrivals.
 *
 * <p>Free of coordinated omission: an arrival's latency runs from its <em>scheduled</em> send
 * time, not from when the sender got round to it, so a stalled sender (or a stalled machine)
 * shows in the latencies instead of hiding them; how late the sends were is reported as well.
 * Arrival {@code i} goes to the node and under the token of user {@code i} of the closed loop's
 * {@code clients} (round robin), so several nodes share the arrivals evenly.
 *
 * <p>As the closed loop, each phase drains: when its time is up, no new arrival is sent and every
 * one sent is followed to its end before the phase returns.
 */
public final class OpenLoopCheckout {

    private final CheckoutLoad users;
    private final ArrivalSchedule schedule;

    private record Arrival(CheckoutLoad.Outcome outcome, long scheduledNanos) {
    }

    private record PhaseTally(Arrival[] arrivals, long[] sendLagNanos, long windowEndNanos) {
    }

    public OpenLoopCheckout(CheckoutLoad users, ArrivalSchedule schedule) {
        this.users = users;
        this.schedule = schedule;
    }

    /** Warms up at the rate and drains, runs {@code afterWarmUp}, then measures at the rate and drains. */
    public OpenLoopResult run(Duration warmUp, Runnable afterWarmUp, Duration measured) throws InterruptedException {
        phase(warmUp);
        afterWarmUp.run();
        long start = System.nanoTime();
        PhaseTally tally = phase(measured);
        double drained = (System.nanoTime() - start) / 1e9;
        long operations = 0;
        long completed = 0;
        long reads = 0;
        Map<String, Long> otherEnds = new TreeMap<>();
        long[] latencies = new long[tally.arrivals().length];
        int recorded = 0;
        for (Arrival arrival : tally.arrivals()) {
            CheckoutLoad.Outcome outcome = arrival.outcome();
            reads += outcome.reads();
            if (outcome.claimed()) {
                operations++;
            }
            if (!outcome.end().equals("SUCCEEDED")) {
                otherEnds.merge(outcome.end(), 1L, Long::sum);
                continue;
            }
            if (outcome.endedNanos() - tally.windowEndNanos() <= 0) {
                completed++;
            }
            latencies[recorded++] = outcome.endedNanos() - arrival.scheduledNanos();
        }
        var result = new CheckoutResult(operations, completed, reads, measured.toNanos() / 1e9, drained,
                Arrays.copyOf(latencies, recorded), otherEnds);
        return new OpenLoopResult(schedule.perSecond(), tally.arrivals().length, result, tally.sendLagNanos());
    }

    private PhaseTally phase(Duration length) throws InterruptedException {
        int count = Math.toIntExact(schedule.arrivalsWithin(length));
        var arrivals = new AtomicReferenceArray<Arrival>(count);
        long[] sendLag = new long[count];
        long start = System.nanoTime();
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < count; i++) {
                long due = start + schedule.offsetNanos(i);
                for (long early = due - System.nanoTime(); early > 0; early = due - System.nanoTime()) {
                    LockSupport.parkNanos(early); // the schedule is the measurement, not a wait for a condition
                }
                sendLag[i] = System.nanoTime() - due;
                int arrival = i;
                threads.execute(() -> {
                    try {
                        arrivals.set(arrival, new Arrival(
                                users.follow(users.nodeOf(arrival), users.tokenOf(arrival), due), due));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        arrivals.set(arrival, new Arrival(new CheckoutLoad.Outcome(false, "INTERRUPTED", 0, System.nanoTime()), due));
                    }
                });
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
            }
        } // closing waits for every arrival's end: the drain
        var ended = new Arrival[count];
        for (int i = 0; i < count; i++) {
            ended[i] = arrivals.get(i);
        }
        return new PhaseTally(ended, sendLag, start + length.toNanos());
    }
}
