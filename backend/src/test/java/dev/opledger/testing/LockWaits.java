package dev.opledger.testing;

import org.springframework.jdbc.core.JdbcTemplate;

/** Whether a statement of the test's database is blocked on a lock: how race tests know the racer waits. */
public final class LockWaits {

    private LockWaits() {
    }

    /** True when a session of this database waits on a lock running a statement that starts with {@code prefix}. */
    public static boolean aStatementWaits(JdbcTemplate jdbc, String prefix) {
        Integer waiting = jdbc.queryForObject("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                + "AND wait_event_type = 'Lock' AND starts_with(query, ?)", Integer.class, prefix);
        return waiting != null && waiting > 0;
    }
}
