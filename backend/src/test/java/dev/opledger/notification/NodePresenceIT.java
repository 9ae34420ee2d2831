package dev.opledger.notification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.node.database.LocatedDatabase;
import dev.opledger.testing.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * A node sends its notifications only while another node listens (issue 13: on the checkout
 * benchmark's single node, 1.9 of its 11 transactions a checkout were notifications nobody else
 * could receive). On a database of the test's own, so no other node is there unless the test
 * starts it; a plain session listening on the channel sees what is sent, and is no node.
 */
class NodePresenceIT {

    private static final String CHANNEL = "presence_test";
    private static final Duration HEARD_WITHIN = Duration.ofSeconds(10);
    /** How long a notification sent now would take to arrive: far longer than it takes here. */
    private static final int SILENCE_MILLIS = 1_500;

    private final List<DatabaseNotifications> nodes = new ArrayList<>();
    private DriverManagerDataSource dataSource;
    private Connection onlooker;

    @BeforeEach
    void ownDatabaseWithAnOnlooker() throws Exception {
        LocatedDatabase database = TestDatabase.fresh();
        dataSource = new DriverManagerDataSource(database.url(), database.username(), database.password());
        onlooker = DriverManager.getConnection(database.url(), database.username(), database.password());
        try (Statement listen = onlooker.createStatement()) {
            listen.execute("LISTEN " + CHANNEL);
        }
    }

    @AfterEach
    void stop() throws Exception {
        nodes.forEach(DatabaseNotifications::stop);
        onlooker.close();
    }

    @Test
    void aNodeAloneSendsNothing() throws Exception {
        DatabaseNotifications alone = node(new Received());
        await().atMost(HEARD_WITHIN).until(alone::listening);

        alone.publish(CHANNEL, "nobody-else");

        assertThat(alone.othersListening()).isFalse();
        assertThat(seenByOnlooker(SILENCE_MILLIS)).isEmpty();
    }

    @Test
    void aSecondNodeIsHeardOfAtOnceAndThenReceivesWhatTheFirstSends() throws Exception {
        DatabaseNotifications first = node(new Received());
        await().atMost(HEARD_WITHIN).until(first::listening);
        var received = new Received();
        DatabaseNotifications second = node(received);

        // each hears of the other within the exchange that the second's first announcement starts,
        // not at the next announcement five seconds on
        await().atMost(Duration.ofMillis(DatabaseNotifications.ANNOUNCE_EVERY.toMillis() / 2))
                .until(() -> hearsOthers(first) && hearsOthers(second));
        first.publish(CHANNEL, "to-the-second");

        await().atMost(HEARD_WITHIN).until(() -> received.payloads.contains("to-the-second"));
        assertThat(seenByOnlooker(SILENCE_MILLIS)).containsExactly("to-the-second");
    }

    @Test
    void aNodeThatHasNoSubscribersStillHearsWhetherOthersListen() {
        DatabaseNotifications receiving = node(new Received());
        DatabaseNotifications sendingOnly = new DatabaseNotifications(dataSource, List.of());
        sendingOnly.start();
        nodes.add(sendingOnly);

        await().atMost(HEARD_WITHIN).until(() -> hearsOthers(sendingOnly) && hearsOthers(receiving));
    }

    // othersListening() is also true while a node does not listen itself (it cannot tell, so it sends)
    private static boolean hearsOthers(DatabaseNotifications node) {
        return node.listening() && node.othersListening();
    }

    private DatabaseNotifications node(Received subscriber) {
        var node = new DatabaseNotifications(dataSource, List.of(subscriber));
        node.start();
        nodes.add(node);
        return node;
    }

    private List<String> seenByOnlooker(int millis) throws Exception {
        List<String> seen = new ArrayList<>();
        long until = System.nanoTime() + Duration.ofMillis(millis).toNanos();
        PGConnection listening = onlooker.unwrap(PGConnection.class);
        while (System.nanoTime() < until) {
            PGNotification[] notifications = listening.getNotifications(100);
            if (notifications != null) {
                for (PGNotification notification : notifications) {
                    seen.add(notification.getParameter());
                }
            }
        }
        return seen;
    }

    private static final class Received implements NotificationSubscriber {

        final List<String> payloads = new CopyOnWriteArrayList<>();

        @Override
        public Set<String> channels() {
            return Set.of(CHANNEL);
        }

        @Override
        public void received(String channel, String payload) {
            payloads.add(payload);
        }
    }
}
