package dev.opledger.node.database;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Chooses a node's database when none is configured: the local PostgreSQL server (creating the
 * database if it is missing), else an embedded PostgreSQL keeping its data under the user's
 * home.
 */
public final class DatabaseLocator {

    private DatabaseLocator() {
    }

    public static LocatedDatabase locate(LocalServer server, String database, Path embeddedDataDirectory) {
        Optional<Connection> maintenance = server.connect();
        if (maintenance.isPresent()) {
            try (Connection connection = maintenance.get()) {
                LocalServer.createDatabaseIfMissing(connection, database);
            } catch (SQLException e) {
                throw new DatabaseUnavailableException("Could not create the database \"" + database + "\" on "
                        + server.host() + ":" + server.port() + " (" + e.getMessage() + "): create it yourself or "
                        + "set OPLEDGER_DB_URL.", e);
            }
            return new LocatedDatabase(server.url(database), server.username(), server.password(),
                    LocatedDatabase.Source.LOCAL_SERVER);
        }
        var embedded = EmbeddedServer.start(embeddedDataDirectory, true, "No PostgreSQL server answers on "
                + server.host() + ":" + server.port() + ", and the embedded PostgreSQL cannot run as root: start "
                + "a PostgreSQL server (for example `pg_ctlcluster 15 main start`), set OPLEDGER_DB_URL, or run "
                + "opledger as a non-root user.");
        String user = "postgres";
        try (Connection connection = embedded.getPostgresDatabase().getConnection()) {
            LocalServer.createDatabaseIfMissing(connection, database);
        } catch (SQLException e) {
            throw new DatabaseUnavailableException("The embedded PostgreSQL started but the database \"" + database
                    + "\" could not be created (" + e.getMessage() + "): remove " + embeddedDataDirectory
                    + " or set OPLEDGER_DB_URL.", e);
        }
        return new LocatedDatabase(embedded.getJdbcUrl(user, database), user, "", LocatedDatabase.Source.EMBEDDED);
    }
}
