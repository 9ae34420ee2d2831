package dev.opledger.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Locale;

/**
 * What the proofs of {@code ./opledger prove} show while they run and leave behind: a progress
 * line on standard output now and then ({@link Progress}), and one row per measured figure in
 * {@code target/prove/results.tsv} ({@link #figure}), which the script prints as the summary table
 * and copies into docs/reliability.md.
 */
final class ProofReport {

    private ProofReport() {
    }

    /**
     * One figure of a scenario: what was counted, the value, what it must be (or "—" for a
     * figure that describes the run), and whether it holds.
     */
    static synchronized void figure(String scenario, String figure, Object value, String expected, boolean holds) {
        Path results = Path.of(System.getProperty("basedir", "."), "target", "prove", "results.tsv");
        try {
            Files.createDirectories(results.getParent());
            Files.writeString(results, String.join("\t", scenario, figure, String.valueOf(value), expected,
                    holds ? "ok" : "FAILED") + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        System.out.printf(Locale.ROOT, "[prove] %-14s %-48s %10s  (must be %s) %s%n", scenario, figure, value, expected,
                holds ? "ok" : "FAILED");
    }

    /** A figure that describes the run (how many, how long) rather than a promise. */
    static void measured(String scenario, String figure, Object value) {
        figure(scenario, figure, value, "—", true);
    }

    static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
    }

    /** A progress line every {@code every} steps or 5 s, whichever comes first, and one at the end. */
    static final class Progress {

        private final String scenario;
        private final long total;
        private final long every;
        private final long started = System.nanoTime();
        private long done;
        private long lastPrinted = System.nanoTime();

        Progress(String scenario, long total) {
            this.scenario = scenario;
            this.total = total;
            this.every = Math.max(1, total / 10);
        }

        synchronized void step(String state) {
            done++;
            long now = System.nanoTime();
            if (done % every == 0 || done == total || now - lastPrinted > 5_000_000_000L) {
                lastPrinted = now;
                int width = 30;
                int filled = total == 0 ? width : (int) Math.min(width, done * width / total);
                System.out.printf(Locale.ROOT, "[prove] %-14s [%s%s] %d/%d  %s  %.1f s%n", scenario,
                        "#".repeat(filled), ".".repeat(width - filled), done, total, state,
                        (now - started) / 1e9);
            }
        }

        long done() {
            return done;
        }

        Duration elapsed() {
            return Duration.ofNanos(System.nanoTime() - started);
        }
    }
}
