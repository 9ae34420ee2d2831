package dev.opledger.e2e;

import dev.opledger.node.database.LocatedDatabase;
import dev.opledger.testing.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/** The database the test node runs on ({@link TestDatabase#shared()}), for fixtures and checks. */
final class E2eDatabase {

    private E2eDatabase() {
    }

    static Connection connect() throws SQLException {
        return connect(TestDatabase.shared());
    }

    /** Another database of the test JVM's ({@link TestDatabase#fresh()}). */
    static Connection connect(LocatedDatabase database) throws SQLException {
        return DriverManager.getConnection(database.url(), database.username(), database.password());
    }
}
