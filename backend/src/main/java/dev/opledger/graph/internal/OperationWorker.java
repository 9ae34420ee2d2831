package dev.opledger.graph.internal;

import dev.opledger.operation.UnreachableDatabase;
import dev.opledger.operation.OperationSpans;
import dev.opledger.claim.Heartbeat;
import dev.opledger.claim.LeasedOperation;
import dev.opledger.claim.LifecycleService;
import dev.opledger.claim.OperationState;
import dev.opledger.effect.RunWrites;
import dev.opledger.graph.OperationExecutor;
import dev.opledger.graph.ExecutionOutcome;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationMdc;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.Fence;
import dev.opledger.operation.SqlStatement;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's workers: leases up to {@code concurrency} operations, runs each on a virtual thread
 * through the {@link OperationExecutor}, renews the leases it holds, and records how each run
 * ended. The runs it holds are in the node's {@link OperationRuns}, which the graph runner shares.
 * A lease it loses (another node took the operation over after missed heartbeats) makes that run
 * stop at its next check; a run that does not notice (it stalled) finds its next write
 * refused by the database, as every write carries the lease's {@link Fence}, and stops there.
 */
public class OperationWorker {

    static final String RUN_SPAN = "opledger.run";

    private final OperationSpans spans;

    private static final Logger log = LoggerFactory.getLogger(OperationWorker.class);

    private final String node;
    private final LifecycleService lifecycle;
    private final OperationExecutor executor;
    private final WorkerProperties properties;
    private final Semaphore slots;
    private final OperationRuns held;
    private final @Nullable RunWrites runWrites;
    private final AtomicBoolean running = new AtomicBoolean();
    private final Semaphore wakeups = new Semaphore(0);
    private final ExecutorService runs = Executors.newVirtualThreadPerTaskExecutor();
    private Thread poller;
    private Thread heartbeats;

    /** A worker with a registry of runs of its own: for an executor that runs no graph of the node's. */
    public OperationWorker(String node, LifecycleService lifecycle, OperationExecutor executor, WorkerProperties properties) {
        this(node, lifecycle, executor, properties, new OperationRuns());
    }

    public OperationWorker(String node, LifecycleService lifecycle, OperationExecutor executor, WorkerProperties properties,
            OperationRuns held) {
        this(node, lifecycle, executor, properties, held, OperationSpans.none());
    }

    /** A worker whose every run is a span ({@value #RUN_SPAN}) tagged with its operationId. */
    public OperationWorker(String node, LifecycleService lifecycle, OperationExecutor executor, WorkerProperties properties,
            OperationRuns held, OperationSpans spans) {
        this(node, lifecycle, executor, properties, held, spans, null);
    }

    /**
     * With {@code runWrites}: what a run leaves held at its end (the last step's outcome, the
     * graph's last checkpoint) commits with the end of the run, in one transaction.
     */
    public OperationWorker(String node, LifecycleService lifecycle, OperationExecutor executor, WorkerProperties properties,
            OperationRuns held, OperationSpans spans, @Nullable RunWrites runWrites) {
        this.runWrites = runWrites;
        this.spans = spans;
        this.node = node;
        this.held = held;
        this.lifecycle = lifecycle;
        this.executor = executor;
        this.properties = properties;
        this.slots = new Semaphore(properties.concurrency());
    }

    public void start() {
        if (running.compareAndSet(false, true)) {
            poller = Thread.ofVirtual().name("worker-poll-" + node).start(this::poll);
            heartbeats = Thread.ofVirtual().name("worker-heartbeat-" + node).start(this::beat);
            log.info("worker {} started: {} at once, lease {}", node, properties.concurrency(), properties.lease());
        }
    }

    /** Asks for work now instead of at the next poll: an operation was accepted on this node. */
    public void nudge() {
        wakeups.release();
    }

    /** Stops asking for work and waits for the runs under way; unfinished leases expire and are taken over. */
    public void stop() {
        if (running.compareAndSet(true, false)) {
            poller.interrupt();
            heartbeats.interrupt();
            try {
                // a lease statement under way when interrupted still returns its operations: the
                // poller hands them to runs before they shut down, and leases nothing after stop()
                poller.join(properties.lease());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            runs.shutdown();
            try {
                if (!runs.awaitTermination(properties.lease().toMillis(), TimeUnit.MILLISECONDS)) {
                    runs.shutdownNow();
                }
            } catch (InterruptedException e) {
                runs.shutdownNow();
                Thread.currentThread().interrupt();
            }
        }
    }

    private void poll() {
        while (running.get()) {
            try {
                int free = slots.availablePermits();
                if (free == 0) {
                    // every slot busy: lease again as soon as a run ends, not at the next poll
                    slots.acquire();
                    slots.release();
                    continue;
                }
                if (leaseAndRun(free) < free) {
                    // no more work for now: wait for the next poll, or for a nudge (work accepted here)
                    if (wakeups.tryAcquire(properties.pollInterval().toMillis(), TimeUnit.MILLISECONDS)) {
                        wakeups.drainPermits();
                    }
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                log.warn("worker {} could not lease operations; trying again", node, e);
                sleepQuietly();
            }
        }
    }

    private int leaseAndRun(int free) throws InterruptedException {
        var operations = lifecycle.lease(node, free, properties.lease());
        for (LeasedOperation operation : operations) {
            Optional<OperationRun> under = held.find(operation.operationId());
            if (under.isPresent()) {
                // This node's own lease expired (a stall outlasted it) and it leased the operation
                // again: the run still going here goes on in the new epoch if no other node held
                // the lease in between; a second run would find the thread busy.
                try (var ignored = OperationMdc.put(operation.operationId())) {
                    if (under.get().lease().map(lease -> lease.renew(operation.fence())).orElse(false)) {
                        log.warn("operation {} is still running on {}: its lease expired and was renewed as {}",
                                operation.operationId(), node, operation.fence());
                    } else {
                        log.warn("operation {} is still running on {} in a lease taken over since; that run stops, "
                                + "and lease {} is left to expire", operation.operationId(), node, operation.fence());
                    }
                }
                continue;
            }
            slots.acquire();
            Optional<OperationRun> run = held.lease(operation.fence());
            if (run.isEmpty()) {
                // a graph run of the thread without a lease (a test's, a tool's) began here meanwhile
                slots.release();
                log.warn("operation {} is already running on {} without a lease; lease {} is left to expire",
                        operation.operationId(), node, operation.fence());
                continue;
            }
            runs.execute(() -> run(operation, run.get()));
        }
        return operations.size();
    }

    private void run(LeasedOperation operation, OperationRun run) {
        HeldLease lease = run.lease().orElseThrow();
        if (runWrites != null) {
            runWrites.carryToRunEnd(operation.operationId());
        }
        try (var ignored = OperationMdc.put(operation.operationId());
                var span = spans.start(RUN_SPAN, operation.operationId())) {
            ExecutionOutcome outcome;
            try {
                outcome = executor.execute(operation, lease);
            } catch (RuntimeException e) {
                if (UnreachableDatabase.causedBy(e)) {
                    // an outage, not the run's fault: nothing is recorded (it could not be); the lease
                    // expires and a worker resumes the run from its last checkpoint, as after a crash
                    log.warn("the run of operation {} stopped: the database cannot be reached ({}); it resumes once "
                            + "the lease {} has expired", operation.operationId(), UnreachableDatabase.reason(e),
                            lease.fence());
                    return;
                }
                log.error("the run of operation {} failed unexpectedly", operation.operationId(), e);
                outcome = new ExecutionOutcome.BrokeDown("the run failed on " + node + ": " + e.getClass().getSimpleName());
            }
            record(operation, lease.fence(), outcome);
        } finally {
            releaseWrites(operation);
            held.end(run);
            slots.release();
        }
    }

    /** What the run still holds after its end was recorded (or could not be) is written on its own. */
    private void releaseWrites(LeasedOperation operation) {
        if (runWrites == null) {
            return;
        }
        try {
            runWrites.release(operation.operationId());
        } catch (RuntimeException e) {
            // the database went away: the lease expires and a worker resumes from the last checkpoint
            log.warn("operation {}: what its run held could not be written ({})", operation.operationId(),
                    UnreachableDatabase.causedBy(e) ? UnreachableDatabase.reason(e) : e.toString());
        }
    }

    private void record(LeasedOperation operation, Fence fence, ExecutionOutcome outcome) {
        OperationId id = operation.operationId();
        boolean recorded = switch (outcome) {
            case ExecutionOutcome.Succeeded s ->
                    end(id, lifecycle.finishing(fence, node, OperationStatus.SUCCEEDED, s.summary()));
            case ExecutionOutcome.Failed f ->
                    end(id, lifecycle.finishing(fence, node, OperationStatus.FAILED, f.reason()));
            case ExecutionOutcome.BrokeDown b -> end(id, lifecycle.breakingDown(fence, node, b.reason()));
            case ExecutionOutcome.NeedsReview r ->
                    end(id, lifecycle.finishing(fence, node, OperationStatus.NEEDS_REVIEW, r.reason()));
            case ExecutionOutcome.Cancelled c ->
                    end(id, lifecycle.finishing(fence, node, OperationStatus.CANCELLED, c.reason()));
            case ExecutionOutcome.AwaitingApproval a ->
                    end(id, lifecycle.finishing(fence, node, OperationStatus.AWAITING_APPROVAL, a.reason()));
            case ExecutionOutcome.AwaitingInput a -> {
                // its statements run in the node's (JPA) transaction manager's transaction, which
                // cannot join the held writes' (a DataSource one): they commit first, on their own
                releaseWrites(operation);
                yield lifecycle.awaitInput(fence, node, a.requests(), a.reason());
            }
            case ExecutionOutcome.LeaseLost lost -> {
                log.warn("operation {}: lease {} was taken over, {} stopped its run on {}", operation.operationId(), fence,
                        lost.refused(), node);
                yield true;
            }
        };
        if (!recorded) {
            log.warn("operation {}: lease {} was taken over before its run on {} ended: the end of the run ({}) was "
                    + "refused and is left to the new holder", operation.operationId(), fence, node, outcome);
        }
    }

    /**
     * The end of the run, in one transaction with what the run carried to it ({@link RunWrites}),
     * sent in one round trip with it: false, and nothing of either written, when the lease's
     * fence refused one of them.
     */
    private boolean end(OperationId operation, SqlStatement<Optional<OperationState>> end) {
        if (runWrites == null) {
            return lifecycle.finish(end);
        }
        // the same statement either way: the end updates the row itself, taking no lock before it
        var together = runWrites.together(operation, rowLocked -> end);
        return together.held() != RunWrites.Held.REFUSED && lifecycle.settled(together.result());
    }

    private void beat() {
        while (running.get()) {
            try {
                Thread.sleep(properties.heartbeat());
                Map<Fence, HeldLease> mine = held.leases().stream()
                        .collect(Collectors.toMap(HeldLease::fence, lease -> lease, (a, b) -> a));
                Heartbeat found = lifecycle.heartbeat(node, mine.keySet(), properties.lease());
                mine.forEach((fence, lease) -> {
                    if (found.cancelPending().contains(fence)) {
                        lease.cancelRequested(fence);
                    }
                    if (!found.held().contains(fence) && lease.lose(fence)) {
                        try (var ignored = OperationMdc.put(fence.operationId())) {
                            log.warn("worker {} lost lease {}: the run stops before its next effect", node, fence);
                        }
                    }
                });
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                log.warn("worker {} could not renew its leases; trying again", node, e);
            }
        }
    }

    private void sleepQuietly() {
        try {
            Thread.sleep(properties.pollInterval());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
