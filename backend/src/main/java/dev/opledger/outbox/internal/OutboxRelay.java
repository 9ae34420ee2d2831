package dev.opledger.outbox.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.dao.DataAccessException;

/**
 * This node's relay, on one thread: creates the topic if missing, then tries to win the election;
 * once elected, it publishes batch after batch and purges old published rows, until it loses the
 * election or the node stops (it then gives the election up, so another node takes over at once).
 * A node that is not elected tries again every {@code relay-lease / 4}, so it takes over within
 * about 1.25 leases of the holder's death.
 *
 * <p>Idle, the elected relay writes nothing: every {@code poll-interval} it only reads whether
 * any row is unpublished (a read-only statement from the watermark on), and it
 * renews the election by itself only every {@code relay-lease / 4}. A batch transaction, which
 * renews the election and so writes and flushes a commit, runs only when there are rows or the
 * renewal is due. Fencing is unchanged: every batch still renews under its epoch first, and marks
 * only under it.
 *
 * <p>Under load, a batch that was not full is followed by {@code linger}: the rows committed
 * meanwhile go out together, one Kafka transaction for several state changes instead of one each.
 */
final class OutboxRelay implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(OutboxRelay.class);
    private static final int PURGE_BATCH = 1000;
    private static final Duration BACK_OFF = Duration.ofSeconds(1);
    private static final Duration STOP_WAIT = Duration.ofSeconds(20);

    private final String node;
    private final EventsProperties properties;
    private final Map<String, Object> adminSettings;
    private final Supplier<Producer<String, byte[]>> producers;
    private final RelayElection election;
    private final RelayBatch batches;
    private final OutboxRows rows;
    private final Counter published;
    private final Timer publishLag;
    private final Object wake = new Object();
    private volatile boolean running;
    private volatile @Nullable Thread thread;
    private volatile boolean elected;
    private long nextPurge;

    OutboxRelay(String node, EventsProperties properties, Map<String, Object> adminSettings,
            Supplier<Producer<String, byte[]>> producers, RelayElection election, RelayBatch batches, OutboxRows rows,
            MeterRegistry meters) {
        this.node = node;
        this.properties = properties;
        this.adminSettings = adminSettings;
        this.producers = producers;
        this.election = election;
        this.batches = batches;
        this.rows = rows;
        this.published = Counter.builder("opledger.outbox.published").description("events published to Kafka")
                .register(meters);
        this.publishLag = Timer.builder("opledger.outbox.publish.lag")
                .description("from an event's state change to its publication").register(meters);
        meters.gauge("opledger.outbox.relay.elected", this, relay -> relay.elected ? 1 : 0);
    }

    /**
     * Stops after the web server and the workers (higher phases stop first), so the events of
     * their last changes still go out from this node when it holds the election.
     */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 4096;
    }

    String node() {
        return node;
    }

    boolean elected() {
        return elected;
    }

    @Override
    public synchronized void start() {
        running = true;
        thread = Thread.ofPlatform().name("outbox-relay").daemon().start(this::run);
    }

    /**
     * Wakes the relay from its pauses instead of interrupting it: an interrupt in the middle of a
     * Kafka or JDBC call breaks the client. A relay still busy after the wait is interrupted.
     */
    @Override
    public void stop() {
        Thread running = thread;
        synchronized (wake) {
            this.running = false;
            wake.notifyAll();
        }
        if (running != null) {
            try {
                if (!running.join(STOP_WAIT)) {
                    running.interrupt();
                    running.join(STOP_WAIT);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            thread = null;
        }
    }

    @Override
    public boolean isRunning() {
        return thread != null;
    }

    private void run() {
        boolean topicReady = false;
        while (running) {
            try {
                if (!topicReady) {
                    topicReady = EventTopic.ensure(adminSettings, properties.topic(), properties.partitions());
                    if (!topicReady) {
                        pause(BACK_OFF);
                    }
                    continue;
                }
                OptionalLong won = election.acquire(node, properties.relayLease());
                if (won.isPresent()) {
                    publishWhileElected(won.getAsLong());
                } else {
                    pause(properties.relayLease().dividedBy(4));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                // the database or Kafka is down, or answered something unexpected: the rows wait, try again
                log.warn("outbox relay {}: {}; trying again", node, e.toString());
                try {
                    pause(BACK_OFF);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void publishWhileElected(long epoch) throws InterruptedException {
        log.info("outbox relay {} elected (epoch {}): publishing to {}", node, epoch, properties.topic());
        elected = true;
        Producer<String, byte[]> producer = null;
        // acquire() just set the lease; an idle relay renews it by itself every lease / 4
        long renewalInterval = properties.relayLease().dividedBy(4).toNanos();
        long renewedAt = System.nanoTime();
        boolean idle = false;
        try {
            while (running) {
                try {
                    if (producer == null) {
                        producer = producers.get();
                    }
                    if (idle && System.nanoTime() - renewedAt < renewalInterval && !rows.anyUnpublished()) {
                        purgeIfDue();
                        pause(properties.pollInterval());
                        continue;
                    }
                    long started = System.nanoTime();
                    switch (batches.publishNext(epoch, producer)) {
                        case RelayBatch.Result.Lost lost -> {
                            log.warn("outbox relay {} lost the election (epoch {}): it stops publishing", node, epoch);
                            return;
                        }
                        case RelayBatch.Result.Published p when p.events().isEmpty() -> {
                            renewedAt = started;
                            idle = true;
                            purgeIfDue();
                            pause(properties.pollInterval());
                        }
                        case RelayBatch.Result.Published p -> {
                            renewedAt = started;
                            idle = false;
                            published.increment(p.events().size());
                            p.events().forEach(event -> publishLag.record(RelayBatch.lag(event)));
                            if (p.events().size() < properties.batchSize() && properties.linger().isPositive()) {
                                pause(properties.linger());
                            }
                        }
                    }
                } catch (KafkaException e) {
                    log.warn("outbox relay {}: publishing failed, the batch stays unpublished ({})", node, e.toString());
                    if (producer != null) {
                        producer.close(Duration.ZERO);
                        producer = null;
                    }
                    pause(BACK_OFF);
                } catch (DataAccessException e) {
                    log.warn("outbox relay {}: the database failed, the batch stays unpublished ({})", node, e.toString());
                    pause(BACK_OFF);
                }
            }
        } finally {
            elected = false;
            if (producer != null) {
                producer.close(Duration.ofSeconds(5));
            }
            if (!running) {
                release(epoch);
            }
        }
    }

    /** On the way out, interrupted or not: the next node need not wait for the lease to expire. */
    private void release(long epoch) {
        boolean interrupted = Thread.interrupted();
        try {
            election.release(epoch);
            log.info("outbox relay {} gave the election up (epoch {})", node, epoch);
        } catch (RuntimeException e) {
            log.warn("outbox relay {} could not give the election up; it expires in {}", node, properties.relayLease(), e);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void pause(Duration duration) throws InterruptedException {
        synchronized (wake) {
            if (running) {
                wake.wait(duration.toMillis());
            }
        }
    }

    private void purgeIfDue() {
        long now = System.nanoTime();
        if (now - nextPurge < 0) {
            return;
        }
        int purged = rows.purge(properties.retention(), PURGE_BATCH);
        if (purged < PURGE_BATCH) {
            nextPurge = now + properties.purgeInterval().toNanos();
        }
    }
}
