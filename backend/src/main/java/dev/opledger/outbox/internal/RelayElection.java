package dev.opledger.outbox.internal;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * Which node's relay publishes: the one row of outbox_relay. A node wins it when it has expired
 * (or was released) and gets the next epoch; it keeps it by renewing it in each batch's
 * transaction ({@link OutboxRows#renewAndReadUnpublished}; an idle relay runs an empty batch every
 * {@code relay-lease / 4} for it), which also locks the row, so a takeover waits for the holder's
 * batch to end and the holder's next renewal fails. The epoch fences, not the clock: a lease that
 * ran out while nobody took over (a slow start, a pause) is still its relay's, and renewed.
 */
@Repository
class RelayElection {

    /** The election as it stands. */
    record Holder(String node, long epoch, boolean current) {
    }

    private final JdbcTemplate jdbc;

    RelayElection(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The new epoch when {@code node} won the election now; empty when another node holds it. */
    OptionalLong acquire(String node, Duration lease) {
        List<Long> epochs = jdbc.queryForList("UPDATE outbox_relay SET epoch = epoch + 1, holder = ?, "
                + "expires_at = now() + ?::interval WHERE name = 'relay' AND expires_at < now() RETURNING epoch",
                Long.class, node, interval(lease));
        return epochs.isEmpty() ? OptionalLong.empty() : OptionalLong.of(epochs.getFirst());
    }

    /** Gives the election up at once (a node stopping), so another node need not wait for the lease to expire. */
    void release(long epoch) {
        jdbc.update("UPDATE outbox_relay SET expires_at = '-infinity' WHERE name = 'relay' AND epoch = ?", epoch);
    }

    Optional<Holder> holder() {
        return jdbc.query("SELECT holder, epoch, expires_at > now() FROM outbox_relay WHERE name = 'relay' AND holder IS NOT NULL",
                (row, n) -> new Holder(row.getString(1), row.getLong(2), row.getBoolean(3))).stream().findFirst();
    }

    private static String interval(Duration duration) {
        return duration.toMillis() + " milliseconds";
    }
}
