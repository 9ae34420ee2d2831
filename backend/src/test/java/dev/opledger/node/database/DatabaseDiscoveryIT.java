package dev.opledger.node.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.opledger.OpledgerApplication;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** How a node finds its database when none is configured. */
@ExtendWith(OutputCaptureExtension.class)
class DatabaseDiscoveryIT {

    private static final LocalServer LOCAL = new LocalServer("127.0.0.1", 5432, "postgres", "");

    @TempDir
    Path embeddedData;

    @Test
    void usesTheLocalServerAndCreatesTheDatabaseOnce() throws SQLException {
        String name = "opledger_discovery_" + UUID.randomUUID().toString().substring(0, 8);
        try {
            var first = DatabaseLocator.locate(LOCAL, name, embeddedData);
            var second = DatabaseLocator.locate(LOCAL, name, embeddedData);

            assertThat(first.source()).isEqualTo(LocatedDatabase.Source.LOCAL_SERVER);
            assertThat(first.url()).isEqualTo("jdbc:postgresql://127.0.0.1:5432/" + name);
            assertThat(second).isEqualTo(first);
            try (Connection maintenance = LOCAL.connect().orElseThrow();
                    var rows = maintenance.createStatement()
                            .executeQuery("SELECT count(*) FROM pg_database WHERE datname = '" + name + "'")) {
                rows.next();
                assertThat(rows.getInt(1)).isEqualTo(1);
            }
        } finally {
            try (Connection maintenance = LOCAL.connect().orElseThrow()) {
                LocalServer.dropDatabase(maintenance, name);
            }
        }
    }

    @Test
    void aServerThatRefusesTheLoginIsAnErrorNotAnAbsence() {
        var wrongUser = new LocalServer("127.0.0.1", 5432, "no_such_role_" + UUID.randomUUID().toString().substring(0, 8), "");

        assertThatThrownBy(() -> DatabaseLocator.locate(wrongUser, "opledger", embeddedData))
                .isInstanceOf(DatabaseUnavailableException.class)
                .hasMessageContaining("OPLEDGER_DB_URL");
    }

    @Test
    void asRootWithNoServerTheNodeStopsWithOneSentenceAndNoStackTrace(CapturedOutput output) throws IOException {
        assumeTrue(EmbeddedServer.runningAsRoot(), "only root is refused the embedded PostgreSQL");
        int closedPort = closedPort();

        assertThatThrownBy(() -> new SpringApplicationBuilder(OpledgerApplication.class)
                .run("--spring.profiles.active=local", "--opledger.database.local-host=127.0.0.1",
                        "--opledger.database.local-port=" + closedPort,
                        "--opledger.database.embedded-directory=" + embeddedData, "--server.port=0"))
                .isInstanceOf(DatabaseUnavailableException.class);

        assertThat(output.getAll())
                .contains("No PostgreSQL server answers on 127.0.0.1:" + closedPort
                        + ", and the embedded PostgreSQL cannot run as root: start a PostgreSQL server")
                .contains("set OPLEDGER_DB_URL, or run opledger as a non-root user.")
                .doesNotContain("\tat ")
                .doesNotContain("DatabaseUnavailableException");
    }

    private static int closedPort() throws IOException {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort(); // closed again when this returns: nothing listens there
        }
    }
}
