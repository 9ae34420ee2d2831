package dev.opledger.claim.internal;

import dev.opledger.claim.OperationState;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PreDestroy;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The requests waiting for an operation to settle on this node, by operationId. A waiter holds no
 * thread: it is a future, a timer entry and a place in this map. When the operation settles (here,
 * or on another node as a notification tells), its waiters are answered after one read of the
 * operation; at their deadline, after one read each.
 *
 * <p>A waiter registers after its caller read the operation, so a settle between that read and the
 * registration would be missed; hence the operations that settled in the last seconds are kept, and
 * a waiter that finds its operation among them reads it again at once.
 */
@Component
public class SettleWaiters {

    private static final Logger log = LoggerFactory.getLogger(SettleWaiters.class);
    /** How long a settle is remembered for waiters that register just after it: far longer than a read. */
    private static final Duration REMEMBERED = Duration.ofSeconds(5);

    private static final class Waiter {
        final OperationState seen;
        final CompletableFuture<OperationState> answer = new CompletableFuture<>();
        volatile @Nullable ScheduledFuture<?> deadline;

        Waiter(OperationState seen) {
            this.seen = seen;
        }
    }

    private final OperationReader reader;
    private final ConcurrentHashMap<OperationId, Set<Waiter>> waiting = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<OperationId, Long> recentlySettled = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("operation-waits").factory());
    private final ExecutorService reads = Executors.newVirtualThreadPerTaskExecutor();

    SettleWaiters(OperationReader reader, MeterRegistry meters) {
        this.reader = reader;
        timer.scheduleWithFixedDelay(this::forgetOldSettles, 1, 1, TimeUnit.SECONDS);
        Gauge.builder("opledger.operation.waiters", this, SettleWaiters::waiters)
                .description("Requests waiting here for an operation to settle (Prefer: wait)")
                .register(meters);
    }

    /** Whether a wait ends at this status: the operation ended, or needs a person. */
    public static boolean endsWait(OperationStatus status) {
        return status != OperationStatus.ACCEPTED && status != OperationStatus.RUNNING;
    }

    /**
     * The operation once it settled, or as it is after {@code max}. {@code current} is the caller's
     * read of it, made under its subject; the answer is read under the same subject.
     */
    public CompletableFuture<OperationState> await(OperationState current, Duration max) {
        if (endsWait(current.status()) || !max.isPositive()) {
            return CompletableFuture.completedFuture(current);
        }
        OperationId id = current.operationId();
        var waiter = new Waiter(current);
        waiting.compute(id, (key, waiters) -> {
            Set<Waiter> set = waiters == null ? ConcurrentHashMap.newKeySet() : waiters;
            set.add(waiter);
            return set;
        });
        waiter.answer.whenComplete((state, failure) -> {
            waiting.computeIfPresent(id, (key, waiters) -> {
                waiters.remove(waiter);
                return waiters.isEmpty() ? null : waiters;
            });
            ScheduledFuture<?> deadline = waiter.deadline;
            if (deadline != null) {
                deadline.cancel(false);
            }
        });
        waiter.deadline = timer.schedule(() -> reads.execute(() -> answerAtDeadline(waiter)), max.toNanos(),
                TimeUnit.NANOSECONDS);
        if (recentlySettled.containsKey(id)) {
            reads.execute(() -> check(id));
        }
        return waiter.answer;
    }

    /** The operation settled (committed): its waiters here read it and are answered. */
    public void settled(OperationId id) {
        recentlySettled.put(id, System.nanoTime());
        if (waiting.containsKey(id)) {
            reads.execute(() -> check(id));
        }
    }

    /**
     * The operation settled here, committed, in this state: its waiters here are answered with it
     * without a read (they are its subject's: another subject's read found nothing to wait for).
     */
    public void settled(OperationState state) {
        OperationId id = state.operationId();
        recentlySettled.put(id, System.nanoTime());
        Set<Waiter> waiters = waiting.get(id);
        if (waiters != null) {
            List.copyOf(waiters).stream().filter(waiter -> waiter.seen.subject().equals(state.subject()))
                    .forEach(waiter -> waiter.answer.complete(state));
        }
    }

    /** Settles may have been missed (notifications were lost): every waiter reads its operation again. */
    public void checkAll() {
        waiting.keySet().forEach(id -> reads.execute(() -> check(id)));
    }

    private int waiters() {
        return waiting.values().stream().mapToInt(Set::size).sum();
    }

    // One read for all the operation's waiters: they are all its owner's (another subject's read found nothing).
    private void check(OperationId id) {
        Set<Waiter> waiters = waiting.get(id);
        if (waiters == null || waiters.isEmpty()) {
            return;
        }
        List<Waiter> now = List.copyOf(waiters);
        try {
            var state = reader.find(now.getFirst().seen.subject(), id);
            for (Waiter waiter : now) {
                if (state.isEmpty()) {
                    waiter.answer.complete(waiter.seen);
                } else if (endsWait(state.get().status())) {
                    waiter.answer.complete(state.get());
                }
            }
        } catch (RuntimeException e) {
            log.warn("operation {}: reading it for its waiters failed; they are answered at their deadline", id, e);
        }
    }

    private void answerAtDeadline(Waiter waiter) {
        if (waiter.answer.isDone()) {
            return;
        }
        try {
            waiter.answer.complete(reader.find(waiter.seen.subject(), waiter.seen.operationId()).orElse(waiter.seen));
        } catch (RuntimeException e) {
            waiter.answer.completeExceptionally(e);
        }
    }

    private void forgetOldSettles() {
        long oldest = System.nanoTime() - REMEMBERED.toNanos();
        recentlySettled.values().removeIf(settledAt -> settledAt - oldest < 0);
    }

    /** On shutdown every waiter is answered with what it last saw, so no request hangs. */
    @PreDestroy
    void answerAll() {
        timer.shutdownNow();
        waiting.values().forEach(waiters -> waiters.forEach(waiter -> waiter.answer.complete(waiter.seen)));
        reads.shutdown();
    }
}
