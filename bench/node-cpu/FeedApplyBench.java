package dev.opledger.feed.internal;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The database's CPU for a poll's feed entries (issue 13): the poll's events as one batch of the
 * one-event statement in a transaction (before) against FeedEntries.applyAll's one statement of
 * arrays, alternating on one connection to a scratch database, each poll of POLL events of checkouts.
 * PostgreSQL's CPU is its backend's (/proc/PID/stat of pg_backend_pid(): this machine's server), the
 * client's this thread's. In FeedEntries' package, to reach it:
 * <pre>
 * CP="backend/target/classes:$EXTRACTED_NODE_JAR/lib/*"   # java -Djarmode=tools -jar ui/target/opledger.jar extract
 * javac -d /tmp/fab -cp "$CP" bench/node-cpu/FeedApplyBench.java
 * java -cp "/tmp/fab:$CP" dev.opledger.feed.internal.FeedApplyBench ROUNDS POLLS POLL   # e.g. 6 300 30
 * </pre>
 */
public class FeedApplyBench {

    private static final String DB = "opledger_bench_feed_apply";

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        int polls = Integer.parseInt(args[1]);
        int poll = Integer.parseInt(args[2]);
        try (var admin = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/postgres", "postgres", "")) {
            admin.createStatement().execute("DROP DATABASE IF EXISTS " + DB);
            admin.createStatement().execute("CREATE DATABASE " + DB);
        }
        var dataSource = new SingleConnectionDataSource("jdbc:postgresql://127.0.0.1:5432/" + DB, "postgres", "", true);
        var jdbc = new JdbcTemplate(dataSource);
        jdbc.execute("""
                CREATE TABLE consumed_event (consumer text NOT NULL, event_id uuid NOT NULL,
                  consumed_at timestamptz NOT NULL DEFAULT now(), CONSTRAINT consumed_event_pk PRIMARY KEY (consumer, event_id));
                CREATE TABLE activity_feed_entry (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                  subject_id text NOT NULL, operation_id uuid NOT NULL, event_id uuid NOT NULL, sequence integer NOT NULL,
                  type text NOT NULL, status text NOT NULL, tool text, step_key text, occurred_at timestamptz NOT NULL,
                  received_at timestamptz NOT NULL DEFAULT now());
                CREATE INDEX activity_feed_entry_subject_ix ON activity_feed_entry (subject_id, occurred_at DESC, id DESC)""");
        int backend = jdbc.queryForObject("SELECT pg_backend_pid()", Integer.class);
        var entries = new FeedEntries(jdbc);
        var transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        Field applyField = FeedEntries.class.getDeclaredField("APPLY");
        applyField.setAccessible(true);
        String apply = (String) applyField.get(null);
        Method arguments = FeedEntries.class.getDeclaredMethod("arguments", String.class, FeedEvent.class);
        arguments.setAccessible(true);
        var threads = ManagementFactory.getThreadMXBean();
        // warm both ways up, then alternate
        for (int round = 0; round <= rounds; round++) {
            for (String mode : List.of("batch", "arrays")) {
                long pg0 = ticks(backend);
                long cpu0 = threads.getCurrentThreadCpuTime();
                long wall0 = System.nanoTime();
                for (int i = 0; i < polls; i++) {
                    List<FeedEvent> events = checkouts(poll);
                    if (mode.equals("batch")) {
                        transactions.executeWithoutResult(status -> jdbc.batchUpdate(apply, events.stream()
                                .map(event -> invoke(arguments, event)).toList()));
                    } else {
                        entries.applyAll("activity-feed", events);
                    }
                }
                long wall = System.nanoTime() - wall0;
                long cpu = threads.getCurrentThreadCpuTime() - cpu0;
                long pg = ticks(backend) - pg0;
                if (round > 0) {
                    int events = polls * poll;
                    System.out.printf("round %d %-6s postgres %6.1f us/event  client %6.1f us/event  wall %6.1f us/event%n",
                            round, mode, pg * 10_000.0 / events, cpu / 1000.0 / events, wall / 1000.0 / events);
                }
            }
        }
        long entriesWritten = jdbc.queryForObject("SELECT count(*) FROM activity_feed_entry", Long.class);
        long consumed = jdbc.queryForObject("SELECT count(*) FROM consumed_event", Long.class);
        System.out.printf("entries %d, consumed %d (each event once: equal)%n", entriesWritten, consumed);
        dataSource.destroy();
        try (var admin = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/postgres", "postgres", "")) {
            admin.createStatement().execute("DROP DATABASE " + DB);
        }
    }

    private static Object[] invoke(Method arguments, FeedEvent event) {
        try {
            return (Object[]) arguments.invoke(null, "activity-feed", event);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A poll of {@code size} events: checkouts' nine events each, as the relay writes them. */
    private static List<FeedEvent> checkouts(int size) {
        List<FeedEvent> events = new ArrayList<>(size);
        UUID operation = UUID.randomUUID();
        String subject = "subject-" + operation.toString().substring(0, 8);
        String[] steps = {"reserve", "capture", "receipt"};
        for (int i = 0; events.size() < size; i++) {
            int sequence = i % 9 + 1;
            if (sequence == 1 && i > 0) {
                operation = UUID.randomUUID();
            }
            boolean tool = sequence > 2 && sequence < 9;
            String step = tool ? steps[(sequence - 3) / 2] : null;
            events.add(new FeedEvent(UUID.randomUUID(), operation, subject, sequence, tool ? "AgentToolStarted" : "OperationRunning",
                    tool ? "STARTED" : "RUNNING", tool ? step + "_tool" : null, step, Instant.now()));
        }
        return events;
    }

    /** A process's user and system CPU, in clock ticks (100 a second). */
    private static long ticks(int pid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }
}
