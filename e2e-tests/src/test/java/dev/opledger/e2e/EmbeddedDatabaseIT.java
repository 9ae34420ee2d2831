package dev.opledger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.opledger.testing.ApiClient;
import dev.opledger.testing.Checkout;
import dev.opledger.testing.TestTokens;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run command's last resort: with no PostgreSQL server answering, the node starts an
 * embedded one whose data stays in a directory of the user's, so a restart keeps the ledger.
 * PostgreSQL refuses to run as root, so when these tests run as root the node runs as the
 * {@code postgres} user, as a person would run it as themselves.
 */
@LongRunning
class EmbeddedDatabaseIT {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    private static final boolean ROOT = "root".equals(System.getProperty("user.name"));

    @TempDir
    Path home;

    // two node starts and an embedded PostgreSQL's first initdb: the e2e default of 60 s was
    // seen to run out on a loaded 2-core machine while both starts succeeded
    @Test
    @Timeout(180)
    void aNodeWithNoServerKeepsItsLedgerInAnEmbeddedPostgresAcrossARestart() throws Exception {
        List<String> prefix = ROOT ? List.of("runuser", "-u", "postgres", "--") : List.of();
        assumeTrue(!ROOT || (Files.isExecutable(Path.of("/usr/sbin/runuser")) && postgresUserExists()),
                "as root this needs runuser and a postgres user");
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path data = home.resolve("postgres");
        String subject = "embedded-" + UUID.randomUUID();
        String operationId = UUID.randomUUID().toString();
        String command = Checkout.command();
        String token = TestTokens.mint(TestTokens.LOCAL_SECRET, claims -> claims.subject(subject));

        String payloadHash;
        try (var node = start(prefix, data, "first")) {
            assertThat(node.node().logTail(400)).contains("embedded PostgreSQL, data kept in " + data);
            var accepted = node.api().submit(token, operationId, command);
            assertThat(accepted.statusCode()).isEqualTo(202);
            payloadHash = ApiClient.json(accepted).get("payloadHash").asString();
        }
        assertThat(data.resolve("PG_VERSION")).exists();

        try (var node = start(prefix, data, "second")) {
            var read = node.api().get(token, "/v1/operations/" + operationId);
            assertThat(read.statusCode()).isEqualTo(200);
            assertThat(ApiClient.json(read).get("payloadHash").asString()).isEqualTo(payloadHash);
            assertThat(node.api().submit(token, operationId, command).statusCode()).isEqualTo(200);
        }
    }

    private ChildNode start(List<String> prefix, Path data, String name) throws IOException {
        Path tmp = home.resolve("tmp");
        Files.createDirectories(tmp);
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxrwxrwx"));
        return NodeProcess.startReady("embedded-" + name, NodeProcess.jar(), prefix, List.of("-Djava.io.tmpdir=" + tmp),
                READY_TIMEOUT,
                "--opledger.database.local-host=127.0.0.1",
                "--opledger.database.local-port=" + NodeProcess.freePort(), // closed again: nothing listens there
                "--opledger.database.embedded-directory=" + data,
                "--opledger.reference-tools.port=0", // embedded by the local profile; 8091 may be taken
                "--opledger.attest.mode=optional");
    }

    private static boolean postgresUserExists() throws IOException {
        return Files.readAllLines(Path.of("/etc/passwd")).stream().anyMatch(line -> line.startsWith("postgres:"));
    }
}
