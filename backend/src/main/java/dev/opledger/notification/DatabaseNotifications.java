package dev.opledger.notification;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The node's PostgreSQL LISTEN/NOTIFY: one connection of the pool held to listen on every
 * subscriber's channels, and a sender that coalesces what the node publishes.
 *
 * <p>Why not a {@code pg_notify} in the statement that changes state: PostgreSQL serialises the
 * commits of all notifying transactions of the cluster on one lock, held through the commit's WAL
 * flush. With a notification in every claim, 16 clients claimed 270–340 times a second where they
 * claimed 4 700–5 700 times without (pgbench, this machine). Here the statement commits as before
 * and the node then sends what it published, in one transaction per batch, one batch at a time:
 * under load one batch carries many notifications, and no claim waits for the lock. The price: a
 * notification is sent a moment after the commit, and is lost when the node dies in between —
 * which is why a notification is only ever a wake-up, and every receiver has a fallback (a poll, a
 * timeout).
 *
 * <p>A notification is for the other nodes (a publisher tells its own node's parts in-process), so
 * none is sent while no other node listens: each node says on {@value #PRESENCE} that it listens
 * when it starts to, every {@link #ANNOUNCE_EVERY} after that, and at once to a node it had not
 * heard of, and counts another node as listening until {@link #PEER_FORGOTTEN_AFTER} passed
 * without a word from it. A single node thus sends no notification at all (on the checkout
 * benchmark, 1.9 transactions of its 11 a checkout, issue 13); a second node is heard of within
 * milliseconds of listening, and what it missed before that it finds by its fallbacks.
 */
@Component
public class DatabaseNotifications implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(DatabaseNotifications.class);
    private static final Pattern CHANNEL = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
    /** How long one wait for notifications lasts; it ends early when one arrives. */
    private static final int WAIT_MILLIS = 250;
    private static final Duration RETRY = Duration.ofSeconds(1);
    private static final String SEND = "SELECT pg_notify(c, p) FROM unnest(?::text[], ?::text[]) AS n(c, p)";
    /** The channel on which each node says that it listens; the payload is its {@link #self}. */
    static final String PRESENCE = "opledger_node_listening";
    static final Duration ANNOUNCE_EVERY = Duration.ofSeconds(5);
    /** Three announcements missed: a node stopped or stalled, and hears nothing until it listens again. */
    static final Duration PEER_FORGOTTEN_AFTER = ANNOUNCE_EVERY.multipliedBy(3);

    private record Notification(String channel, String payload) {
    }

    private final DataSource dataSource;
    private final ObjectProvider<NotificationSubscriber> subscriberBeans;
    private final @Nullable List<NotificationSubscriber> givenSubscribers;
    private final ConcurrentLinkedQueue<Notification> outgoing = new ConcurrentLinkedQueue<>();
    private final String self = UUID.randomUUID().toString();
    /** The other listening nodes heard of: their {@link #self} and when (nanoTime) they last said so. */
    private final ConcurrentHashMap<String, Long> peers = new ConcurrentHashMap<>();
    private final Semaphore toSend = new Semaphore(0);
    private volatile Map<String, List<NotificationSubscriber>> byChannel = Map.of();
    private volatile boolean running;
    private volatile boolean listening;
    private volatile @Nullable Thread listener;
    private volatile @Nullable Thread sender;

    @Autowired
    public DatabaseNotifications(DataSource dataSource, ObjectProvider<NotificationSubscriber> subscribers) {
        this.dataSource = dataSource;
        this.subscriberBeans = subscribers;
        this.givenSubscribers = null;
    }

    /** Outside a Spring context (a test's second node): these subscribers only. */
    public DatabaseNotifications(DataSource dataSource, List<NotificationSubscriber> subscribers) {
        this.dataSource = dataSource;
        this.subscriberBeans = null;
        this.givenSubscribers = List.copyOf(subscribers);
    }

    /**
     * Sends {@code payload} on {@code channel} to every other listening node once the current
     * transaction commits, or now when there is none; nothing when it rolls back, or when no other
     * node listens. This node's subscribers of the channel may receive it too, or not: what
     * happens on this node its publisher tells in-process. Identical notifications sent together
     * arrive once.
     */
    public void publish(String channel, String payload) {
        if (!CHANNEL.matcher(channel).matches()) {
            throw new IllegalArgumentException("not a channel name: " + channel);
        }
        var notification = new Notification(channel, payload);
        AfterCommit.run(() -> send(notification));
    }

    /**
     * Whether another node listens, as far as this one knows: it heard from one in the last
     * {@link #PEER_FORGOTTEN_AFTER}, or it cannot tell (it does not listen itself, so it sends).
     */
    public boolean othersListening() {
        if (!listening) {
            return true;
        }
        long now = System.nanoTime();
        peers.values().removeIf(heard -> now - heard > PEER_FORGOTTEN_AFTER.toNanos());
        return !peers.isEmpty();
    }

    /** Whether the node listens now: while it does not, notifications to it are lost. */
    public boolean listening() {
        return listening;
    }

    @Override
    public void start() {
        List<NotificationSubscriber> subscribers = givenSubscribers != null ? givenSubscribers
                : subscriberBeans.orderedStream().toList();
        byChannel = subscribers.stream()
                .flatMap(subscriber -> subscriber.channels().stream().map(channel -> Map.entry(channel, subscriber)))
                .collect(Collectors.groupingBy(Map.Entry::getKey,
                        Collectors.mapping(Map.Entry::getValue, Collectors.toList())));
        byChannel.keySet().forEach(channel -> {
            if (!CHANNEL.matcher(channel).matches()) {
                throw new IllegalStateException("not a channel name: " + channel);
            }
        });
        if (byChannel.containsKey(PRESENCE)) {
            throw new IllegalStateException(PRESENCE + " is the notifications' own channel");
        }
        running = true;
        sender = Thread.ofVirtual().name("notification-sender").start(this::sendLoop);
        // even without subscribers: a node that sends must hear whether anyone listens
        listener = Thread.ofPlatform().daemon().name("notification-listener").start(this::listen);
    }

    @Override
    public void stop() {
        running = false;
        toSend.release();
        for (Thread thread : new Thread[] {listener, sender}) {
            if (thread != null) {
                thread.interrupt();
                try {
                    thread.join(Duration.ofSeconds(2));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        deaf();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Before the beans that publish or receive stop (the default phase), after they started. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 1;
    }

    private void send(Notification notification) {
        if (othersListening()) {
            enqueue(notification);
        }
    }

    private void enqueue(Notification notification) {
        outgoing.add(notification);
        toSend.release();
    }

    private void announce() {
        enqueue(new Notification(PRESENCE, self));
    }

    // A node not heard of (or forgotten) is told at once that this one listens, so it need not
    // wait for the next announcement to start sending here.
    private void heardFrom(String node) {
        if (!node.equals(self) && peers.put(node, System.nanoTime()) == null) {
            announce();
        }
    }

    // One batch at a time: what is published while a batch is in flight goes in the next one.
    private void sendLoop() {
        while (running || !outgoing.isEmpty()) {
            try {
                toSend.acquire();
            } catch (InterruptedException e) {
                if (running) {
                    continue;
                }
            }
            toSend.drainPermits();
            Set<Notification> batch = new LinkedHashSet<>();
            for (Notification next; (next = outgoing.poll()) != null; ) {
                batch.add(next);
            }
            if (!batch.isEmpty()) {
                sendBatch(batch);
            }
        }
    }

    private void sendBatch(Set<Notification> batch) {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(true);
            Array channels = connection.createArrayOf("text", batch.stream().map(Notification::channel).toArray());
            Array payloads = connection.createArrayOf("text", batch.stream().map(Notification::payload).toArray());
            try (PreparedStatement statement = connection.prepareStatement(SEND)) {
                statement.setArray(1, channels);
                statement.setArray(2, payloads);
                statement.execute();
            }
        } catch (SQLException | RuntimeException e) {
            // receivers fall back to their polls and timeouts
            log.warn("{} notifications could not be sent ({}): their receivers find out by their next poll",
                    batch.size(), e.getMessage());
        }
    }

    private void listen() {
        while (running) {
            try (Connection connection = dataSource.getConnection()) {
                connection.setAutoCommit(true);
                try (Statement listen = connection.createStatement()) {
                    for (String channel : byChannel.keySet()) {
                        listen.execute("LISTEN " + channel);
                    }
                    listen.execute("LISTEN " + PRESENCE);
                }
                PGConnection notifications = connection.unwrap(PGConnection.class);
                listening = true;
                announce();
                long announced = System.nanoTime();
                log.debug("listening on {}", byChannel.keySet());
                byChannel.values().stream().flatMap(List::stream).distinct()
                        .forEach(subscriber -> subscriber.listening(true));
                while (running) {
                    PGNotification[] received = notifications.getNotifications(WAIT_MILLIS);
                    if (received != null) {
                        for (PGNotification notification : received) {
                            if (PRESENCE.equals(notification.getName())) {
                                heardFrom(notification.getParameter());
                            } else {
                                deliver(notification);
                            }
                        }
                    }
                    if (System.nanoTime() - announced > ANNOUNCE_EVERY.toNanos()) {
                        announce();
                        announced = System.nanoTime();
                    }
                }
            } catch (SQLException | RuntimeException e) {
                deaf();
                if (running) {
                    log.warn("listening on {} failed ({}): trying again in {}", byChannel.keySet(), e.getMessage(), RETRY);
                    try {
                        Thread.sleep(RETRY);
                    } catch (InterruptedException interrupted) {
                        return;
                    }
                }
            }
        }
    }

    private void deliver(PGNotification notification) {
        for (NotificationSubscriber subscriber : byChannel.getOrDefault(notification.getName(), List.of())) {
            try {
                subscriber.received(notification.getName(), notification.getParameter());
            } catch (RuntimeException e) {
                log.warn("a subscriber of {} failed on {}", notification.getName(), notification.getParameter(), e);
            }
        }
    }

    private void deaf() {
        peers.clear();
        if (listening || !running) {
            listening = false;
            new ArrayList<>(byChannel.values()).stream().flatMap(List::stream).distinct()
                    .forEach(subscriber -> subscriber.listening(false));
        }
    }
}
