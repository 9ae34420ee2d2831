package dev.opledger.node.database;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Starts an embedded PostgreSQL (zonky's binaries) for a machine with no server. PostgreSQL
 * refuses to run as root, so as root this stops with one sentence saying what to do instead.
 */
public final class EmbeddedServer {

    private EmbeddedServer() {
    }

    /**
     * Starts a server whose data lives in {@code dataDirectory}; an existing directory is reused,
     * so a restart keeps the ledger. The server stops when the JVM exits.
     */
    public static EmbeddedPostgres start(Path dataDirectory, boolean keepData, String whenRoot) {
        if (runningAsRoot()) {
            throw new DatabaseUnavailableException(whenRoot);
        }
        try {
            return EmbeddedPostgres.builder()
                    .setDataDirectory(dataDirectory)
                    .setCleanDataDirectory(!keepData)
                    .setPGStartupWait(Duration.ofSeconds(30))
                    .start();
        } catch (IOException e) {
            throw new DatabaseUnavailableException("The embedded PostgreSQL in " + dataDirectory
                    + " did not start (" + e.getMessage() + "): set OPLEDGER_DB_URL to a PostgreSQL server.", e);
        }
    }

    static boolean runningAsRoot() {
        try {
            return new com.sun.security.auth.module.UnixSystem().getUid() == 0;
        } catch (LinkageError | RuntimeException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }
}
