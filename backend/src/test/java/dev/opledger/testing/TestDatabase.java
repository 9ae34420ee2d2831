package dev.opledger.testing;

import dev.opledger.node.database.EmbeddedServer;
import dev.opledger.node.database.LocalServer;
import dev.opledger.node.database.LocatedDatabase;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A database of the test JVM's own on the local PostgreSQL server, created on first use and
 * dropped when the JVM exits. Connection settings come from {@code OPLEDGER_TEST_DB_HOST},
 * {@code _PORT}, {@code _USER}, {@code _PASSWORD} (default 127.0.0.1:5432, postgres, no password).
 * With no server answering, it falls back to an embedded PostgreSQL, as the run command does.
 */
public final class TestDatabase {

    private static final String PREFIX = "opledger_test_";
    private static final Pattern OWN_NAME = Pattern.compile(PREFIX + "(\\d+)_[0-9a-f]+");

    private static LocatedDatabase shared;
    private static EmbeddedPostgres embedded;

    private TestDatabase() {
    }

    public static synchronized LocatedDatabase shared() {
        if (shared == null) {
            shared = create();
        }
        return shared;
    }

    /**
     * Another database of the test JVM's own, empty, dropped when the JVM exits: for tests whose
     * nodes must see no operation but their own (a worker takes any accepted operation it finds).
     */
    public static synchronized LocatedDatabase fresh() {
        return create();
    }

    private static LocatedDatabase create() {
        var server = new LocalServer(env("OPLEDGER_TEST_DB_HOST", "127.0.0.1"),
                Integer.parseInt(env("OPLEDGER_TEST_DB_PORT", "5432")), env("OPLEDGER_TEST_DB_USER", "postgres"),
                env("OPLEDGER_TEST_DB_PASSWORD", ""));
        String name = PREFIX + ProcessHandle.current().pid() + "_"
                + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        Optional<Connection> maintenance = server.connect();
        if (maintenance.isPresent()) {
            try (Connection connection = maintenance.get()) {
                dropDatabasesOfDeadTestRuns(connection);
                LocalServer.createDatabaseIfMissing(connection, name);
            } catch (SQLException e) {
                throw new IllegalStateException("cannot create the test database " + name, e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> drop(server, name)));
            return new LocatedDatabase(server.url(name), server.username(), server.password(),
                    LocatedDatabase.Source.LOCAL_SERVER);
        }
        return embedded(server, name);
    }

    private static LocatedDatabase embedded(LocalServer server, String name) {
        try {
            if (embedded == null) {
                embedded = EmbeddedServer.start(Files.createTempDirectory("opledger-test-pg"), false,
                        "No PostgreSQL server answers on " + server.host() + ":" + server.port() + " and the embedded "
                                + "PostgreSQL cannot run as root: start one or set OPLEDGER_TEST_DB_HOST/PORT/USER.");
                EmbeddedPostgres started = embedded;
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    try {
                        started.close();
                    } catch (IOException e) {
                        // the JVM is exiting; the temporary directory is left behind at worst
                    }
                }));
            }
            try (Connection connection = embedded.getPostgresDatabase().getConnection()) {
                LocalServer.createDatabaseIfMissing(connection, name);
            }
            return new LocatedDatabase(embedded.getJdbcUrl("postgres", name), "postgres", "",
                    LocatedDatabase.Source.EMBEDDED);
        } catch (IOException | SQLException e) {
            throw new IllegalStateException("cannot start an embedded PostgreSQL for the tests", e);
        }
    }

    private static void drop(LocalServer server, String name) {
        server.connect().ifPresent(connection -> {
            try (connection) {
                LocalServer.dropDatabase(connection, name);
            } catch (SQLException e) {
                System.err.println("could not drop test database " + name + ": " + e.getMessage());
            }
        });
    }

    /** Test JVMs killed before their shutdown hook leave databases behind; their pid tells. */
    private static void dropDatabasesOfDeadTestRuns(Connection connection) throws SQLException {
        List<String> stale = new ArrayList<>();
        try (var statement = connection.prepareStatement("SELECT datname FROM pg_database WHERE datname LIKE ?")) {
            statement.setString(1, PREFIX + "%");
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    Matcher own = OWN_NAME.matcher(rows.getString(1));
                    if (own.matches() && ProcessHandle.of(Long.parseLong(own.group(1))).isEmpty()) {
                        stale.add(rows.getString(1));
                    }
                }
            }
        }
        for (String database : stale) {
            LocalServer.dropDatabase(connection, database);
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
