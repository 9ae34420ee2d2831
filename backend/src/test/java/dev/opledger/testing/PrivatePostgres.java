package dev.opledger.testing;

import dev.opledger.node.database.LocalServer;
import dev.opledger.node.database.LocatedDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A PostgreSQL cluster of a test's own (initdb and pg_ctl of the machine's PostgreSQL, a temporary
 * directory, trust authentication, its own port), which the test may stop and start again: the
 * shared server on 5432 is never restarted, as other test runs depend on it. PostgreSQL refuses to
 * run as root, so as root it runs as the {@code postgres} user. Binaries from
 * {@code OPLEDGER_TEST_PG_BIN} (default {@code /usr/lib/postgresql/15/bin}).
 */
public final class PrivatePostgres implements AutoCloseable {

    private static final boolean ROOT = "root".equals(System.getProperty("user.name"));

    private final Path directory;
    private final Path data;
    private final int port;

    private PrivatePostgres(Path directory, int port) {
        this.directory = directory;
        this.data = directory.resolve("data");
        this.port = port;
    }

    /** Whether this machine can run one: the binaries exist, and as root a {@code postgres} user and runuser. */
    public static boolean available() {
        if (!Files.isExecutable(bin().resolve("initdb"))) {
            return false;
        }
        if (!ROOT) {
            return true;
        }
        try {
            return Files.isExecutable(Path.of("/usr/sbin/runuser"))
                    && Files.readAllLines(Path.of("/etc/passwd")).stream().anyMatch(line -> line.startsWith("postgres:"));
        } catch (IOException e) {
            return false;
        }
    }

    /** initdb in a new temporary directory, then starts the server on {@code port} (127.0.0.1 only). */
    public static PrivatePostgres start(int port) {
        try {
            Path directory = Files.createTempDirectory("opledger-private-pg-");
            // the postgres user (as root) must be able to create the data directory and its socket here
            Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxrwxrwx"));
            var cluster = new PrivatePostgres(directory, port);
            cluster.run(120, "initdb", "-D", cluster.data.toString(), "-U", "postgres", "-A", "trust", "-E", "UTF8",
                    "--no-sync");
            // a test node and the test's own connections; fsync off: a test's data need not survive a power cut
            Files.writeString(cluster.data.resolve("postgresql.conf"), "\nmax_connections = 60\nfsync = off\n"
                    + "synchronous_commit = off\nfull_page_writes = off\n", java.nio.file.StandardOpenOption.APPEND);
            cluster.startAgain();
            return cluster;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A cluster on {@code port} with the empty {@code database}, and the node under test pointed at
     * it, Hikari's {@code connection-timeout} {@code connectionTimeoutMs}: for a test class that
     * takes its node's database away ({@code @DynamicPropertySource}; the class closes the cluster).
     */
    public static PrivatePostgres underTheNode(int port, String database, int connectionTimeoutMs,
            DynamicPropertyRegistry registry) {
        var cluster = start(port);
        var located = cluster.createDatabase(database);
        registry.add("spring.datasource.url", located::url);
        registry.add("spring.datasource.username", located::username);
        registry.add("spring.datasource.password", located::password);
        registry.add("spring.datasource.hikari.connection-timeout", () -> connectionTimeoutMs);
        return cluster;
    }

    public int port() {
        return port;
    }

    /** Starts the stopped server again (waits until it accepts connections). */
    public void startAgain() {
        run(60, "pg_ctl", "-D", data.toString(), "-l", directory.resolve("server.log").toString(), "-w", "-t", "50",
                "-o", "-p " + port + " -c listen_addresses=127.0.0.1 -c unix_socket_directories=" + directory,
                "start");
    }

    /**
     * Stops the server as an operator's restart does ({@code -m fast}: every session is ended,
     * open transactions roll back, then a clean shutdown); returns once it has stopped.
     */
    public void stop() {
        run(60, "pg_ctl", "-D", data.toString(), "-w", "-t", "50", "-m", "fast", "stop");
    }

    /**
     * Makes the server hang without refusing anything: SIGSTOP to the postmaster, then to every
     * process under it (backends, checkpointer, …). The kernel still completes TCP handshakes on
     * its port, but nothing answers: a connection attempt waits for the startup reply, a statement
     * for its result. {@link #thaw} lets them all go on.
     */
    public void freeze() {
        ProcessHandle postmaster = postmaster();
        signal("STOP", postmaster);
        postmaster.descendants().forEach(process -> signal("STOP", process));
    }

    /** SIGCONT to the postmaster and everything under it, after {@link #freeze}. */
    public void thaw() {
        ProcessHandle postmaster = postmaster();
        postmaster.descendants().forEach(process -> signal("CONT", process));
        signal("CONT", postmaster);
    }

    private ProcessHandle postmaster() {
        try {
            long pid = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).getFirst().strip());
            return ProcessHandle.of(pid).orElseThrow(() -> new IllegalStateException("no postmaster " + pid));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void signal(String signal, ProcessHandle process) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                    .redirectErrorStream(true).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed: "
                        + new String(kill.getInputStream().readAllBytes()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending SIG" + signal, e);
        }
    }

    /** A new, empty database on this server. */
    public LocatedDatabase createDatabase(String name) {
        try (Connection maintenance = connect("postgres")) {
            LocalServer.createDatabaseIfMissing(maintenance, name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + name + " on port " + port, e);
        }
        return new LocatedDatabase(url(name), "postgres", "", LocatedDatabase.Source.CONFIGURED);
    }

    public String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    public Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(url(database), "postgres", "");
    }

    /** Stops the server at once and deletes its directory. */
    @Override
    public void close() {
        try {
            if (Files.exists(data.resolve("postmaster.pid"))) {
                try {
                    thaw(); // a frozen server would not stop
                } catch (RuntimeException gone) {
                    // no postmaster left to thaw: pg_ctl below cleans up what is left
                }
                run(60, "pg_ctl", "-D", data.toString(), "-w", "-t", "50", "-m", "immediate", "stop");
            }
        } finally {
            try (Stream<Path> files = Files.walk(directory)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            } catch (IOException e) {
                System.err.println("could not delete " + directory + ": " + e.getMessage());
            }
        }
    }

    private void run(int timeoutSeconds, String program, String... arguments) {
        List<String> command = new ArrayList<>();
        if (ROOT) {
            command.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        command.add(bin().resolve(program).toString());
        command.addAll(List.of(arguments));
        Path output = directory.resolve(program + ".out");
        try {
            Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).start();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not end within " + timeoutSeconds
                        + " s:\n" + Files.readString(output));
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " exited with " + process.exitValue()
                        + ":\n" + Files.readString(output));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + program, e);
        }
    }

    private static Path bin() {
        String configured = System.getenv("OPLEDGER_TEST_PG_BIN");
        return Path.of(configured == null || configured.isBlank() ? "/usr/lib/postgresql/15/bin" : configured);
    }
}
