package dev.opledger.cli.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/** One phase of a load run: every client's loop on its own virtual thread for a fixed time. */
final class LoadPhase {

    /** A client's loop: runs until {@code stop} is set, then returns its tally. */
    @FunctionalInterface
    interface Loop<T> {
        T run(AtomicBoolean stop) throws Exception;
    }

    private LoadPhase() {
    }

    /** Starts the loops, lets them run for {@code length}, stops them and returns their tallies in order. */
    static <T> List<T> run(Duration length, List<? extends Loop<T>> loops) throws Exception {
        var stop = new AtomicBoolean();
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<T>> running = loops.stream().map(loop -> threads.submit(() -> loop.run(stop))).toList();
            Thread.sleep(length); // the phase's length is the measurement, not a wait for a condition
            stop.set(true);
            List<T> tallies = new ArrayList<>();
            for (var future : running) {
                tallies.add(future.get());
            }
            return tallies;
        }
    }
}
