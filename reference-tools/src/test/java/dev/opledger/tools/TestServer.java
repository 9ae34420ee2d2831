package dev.opledger.tools;

import dev.opledger.node.database.LocatedDatabase;
import dev.opledger.testing.TestDatabase;

/**
 * The reference tool server of this test JVM, started once with the launcher on a database of
 * its own ({@link TestDatabase}); the JVM's shutdown closes it. Tests tell their effects apart by
 * operation id ({@link #newOperationId()}), never by emptying tables.
 */
public final class TestServer {

    private static ReferenceToolsServer server;

    private TestServer() {
    }

    public static synchronized ReferenceToolsServer get() {
        if (server == null) {
            LocatedDatabase database = TestDatabase.shared();
            server = ReferenceTools.start(0, database.url(), database.username(), database.password());
        }
        return server;
    }

    public static String newOperationId() {
        return "op-" + java.util.UUID.randomUUID();
    }
}
