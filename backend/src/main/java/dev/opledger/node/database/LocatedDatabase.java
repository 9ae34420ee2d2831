package dev.opledger.node.database;

/**
 * The database a node (or a test) will use.
 *
 * @param source where it came from, for the start-up log line
 */
public record LocatedDatabase(String url, String username, String password, Source source) {

    public enum Source {
        /** {@code spring.datasource.url} or {@code OPLEDGER_DB_URL}. */
        CONFIGURED,
        /** The PostgreSQL server answering on the local port. */
        LOCAL_SERVER,
        /** An embedded PostgreSQL started by this process. */
        EMBEDDED
    }
}
