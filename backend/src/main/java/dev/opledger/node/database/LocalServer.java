package dev.opledger.node.database;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * A PostgreSQL server at a host and port: does it answer, and make sure a database exists on it.
 *
 * @param host where the server listens
 * @param port its port
 * @param username the role to connect as
 * @param password its password (empty for trust authentication)
 */
public record LocalServer(String host, int port, String username, String password) {

    private static final Pattern DATABASE_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
    private static final String CONNECTION_REFUSED = "08001";
    private static final String DUPLICATE_DATABASE = "42P04";

    public String url(String database) {
        return "jdbc:postgresql://" + host + ":" + port + "/" + database;
    }

    /**
     * Connects to the maintenance database; empty when nothing answers on the port. A server
     * that answers but refuses the login is an error, not an absence: falling back to an
     * embedded database would hide the misconfiguration.
     */
    public Optional<Connection> connect() {
        var properties = new Properties();
        properties.setProperty("user", username);
        properties.setProperty("password", password);
        properties.setProperty("connectTimeout", "3");
        properties.setProperty("loginTimeout", "5");
        try {
            return Optional.of(DriverManager.getConnection(url("postgres"), properties));
        } catch (SQLException e) {
            if (CONNECTION_REFUSED.equals(e.getSQLState())) {
                return Optional.empty();
            }
            throw new DatabaseUnavailableException("PostgreSQL at " + host + ":" + port + " answered but refused to "
                    + "connect as \"" + username + "\" (" + e.getMessage() + "): set OPLEDGER_DB_URL, "
                    + "OPLEDGER_DB_USER and OPLEDGER_DB_PASSWORD to a database this node may use.", e);
        }
    }

    /** Creates the database unless it exists; true when this call created it. */
    public static boolean createDatabaseIfMissing(Connection maintenance, String database) throws SQLException {
        requireSafeName(database);
        try (var exists = maintenance.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
            exists.setString(1, database);
            try (var rows = exists.executeQuery()) {
                if (rows.next()) {
                    return false;
                }
            }
        }
        try (var create = maintenance.createStatement()) {
            create.execute("CREATE DATABASE " + database);
            return true;
        } catch (SQLException e) {
            if (DUPLICATE_DATABASE.equals(e.getSQLState())) {
                return false; // another node created it between our check and our create
            }
            throw e;
        }
    }

    /** Drops a database and ends its sessions (PostgreSQL 13+). */
    public static void dropDatabase(Connection maintenance, String database) throws SQLException {
        requireSafeName(database);
        try (var drop = maintenance.createStatement()) {
            drop.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        }
    }

    // CREATE/DROP DATABASE take no bind parameters: only plain names get this far.
    private static void requireSafeName(String database) {
        if (!DATABASE_NAME.matcher(database).matches()) {
            throw new IllegalArgumentException("not a plain database name: " + database);
        }
    }
}
