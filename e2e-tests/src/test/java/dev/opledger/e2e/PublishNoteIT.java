package dev.opledger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.cli.device.DeviceVariant;
import dev.opledger.node.database.LocatedDatabase;
import dev.opledger.testing.ApiClient;
import dev.opledger.testing.TestDatabase;
import dev.opledger.testing.TestTokens;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code publish-note}, the second operation type, on a real third-party MCP server: npm's
 * server-filesystem over stdio, started by the node with a sandbox directory as its only root.
 * What is checked is the file system itself: the note in place, its edit applied once.
 *
 * <p>Each scenario has a database and a note directory of its own. Leases are short (3 s) so a
 * takeover comes soon after a death.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
@LongRunning
class PublishNoteIT {

    private static final Duration DEATH = Duration.ofSeconds(45);
    private static final Duration DONE = Duration.ofSeconds(60);
    private static final String TEXT = "# Release 4.2\n## Changes\n";
    private static final String OLD_TEXT = "## Changes\n";
    private static final String NEW_TEXT = "## Changes\n- faster sign-in\n";
    /** The note with its edit applied once. */
    private static final String EDITED = "# Release 4.2\n## Changes\n- faster sign-in\n";
    /** What a second edit_file of the same edit makes of it: the line twice. */
    private static final String EDITED_TWICE = "# Release 4.2\n## Changes\n- faster sign-in\n- faster sign-in\n";

    @TempDir
    static Path sandbox;
    private static Path root;

    @RegisterExtension
    final ChildNodes nodes = new ChildNodes();

    @BeforeAll
    @Timeout(value = 4, unit = TimeUnit.MINUTES) // the first fetch on a clean machine downloads the package
    static void fetchTheServer() throws Exception {
        root = sandbox.toRealPath();
        FilesystemServerPackage.fetch(root);
    }

    /**
     * A subject's simulated device registers its key and submits a note through the attested path
     * (App Attest required, as the local profile has it): the node runs it to SUCCEEDED, and the
     * note is in place with its edit applied once and no draft left beside it.
     */
    @Test
    void anAttestedSubmissionPublishesTheNoteWithItsEditAppliedOnce() throws Exception {
        var database = TestDatabase.fresh();
        String directory = "notes/" + UUID.randomUUID();
        ChildNode node = nodes.start("note", database, noteNode());
        var device = new AttestedDevice(node.node(), "notes-" + UUID.randomUUID(), DeviceVariant.APPLE);
        assertThat(device.register().statusCode()).isEqualTo(201);
        String operationId = UUID.randomUUID().toString();

        var accepted = device.attempt(operationId, ApiClient.command("publish-note", arguments(directory))).send();

        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        awaitStatus(node, device.token, operationId, "SUCCEEDED");
        assertThat(Files.readString(root.resolve(directory).resolve("release.md"))).isEqualTo(EDITED);
        assertThat(entries(directory)).containsExactly("release.md");
        assertThat(effectRecords(database, operationId))
                .as("create_directory and write_file idempotent by their annotations, the others seeded")
                .containsExactly("directory IDEMPOTENT SUCCEEDED", "draft IDEMPOTENT SUCCEEDED",
                        "edit CHECK_THEN_WRITE SUCCEEDED", "publish CHECK_THEN_WRITE SUCCEEDED");
    }

    /** A note whose directory would leave the server's root is refused before anything is claimed or written. */
    @Test
    void aNoteThatLeavesTheSandboxIsRefusedAndWritesNothing() throws Exception {
        var database = TestDatabase.fresh();
        ChildNode node = nodes.start("note", database, noteNode("--opledger.attest.mode=optional"));
        String subject = "notes-" + UUID.randomUUID();
        String token = TestTokens.mint(TestTokens.LOCAL_SECRET, claims -> claims.subject(subject));

        var refused = node.api().submit(token, UUID.randomUUID().toString(),
                ApiClient.command("publish-note", arguments("../outside")));

        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(422);
        assertThat(refused.body()).contains("/arguments/directory");
        assertThat(root.resolveSibling("outside")).doesNotExist();
        try (Connection db = E2eDatabase.connect(database)) {
            assertThat(E2eQueries.list(db, "SELECT count(*) FROM operation WHERE subject_id = ?", subject))
                    .containsExactly(0L);
        }
    }

    /**
     * Two operations of one note name, submitted at the same moment with other texts: move_file
     * refuses an existing destination, so one is published and the other ends FAILED with the
     * tool's refusal, its draft kept for a person and the published note untouched. The node runs
     * one operation at a time here: server-filesystem's move_file checks the destination and then
     * renames, two steps, and two moves at the same instant could both pass the check (the second
     * rename then replaces the first note) — a race inside the server that no caller can close.
     */
    @Test
    void twoNotesOfOneNameArePublishedOnceAndTheOtherFails() throws Exception {
        var database = TestDatabase.fresh();
        String directory = "notes/" + UUID.randomUUID();
        ChildNode node = nodes.start("note", database, noteNode("--opledger.attest.mode=optional",
                "--opledger.worker.concurrency=1"));
        String token = TestTokens.mint(TestTokens.LOCAL_SECRET, claims -> claims.subject("notes-" + UUID.randomUUID()));
        List<String> operations = List.of(UUID.randomUUID().toString(), UUID.randomUUID().toString());
        List<String> titles = List.of("# Release 4.2", "# Release 4.3");

        try (var submitters = Executors.newVirtualThreadPerTaskExecutor()) {
            var start = new CountDownLatch(1);
            List<Future<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < operations.size(); i++) {
                String operationId = operations.get(i);
                String text = TEXT.replace("# Release 4.2", titles.get(i));
                answers.add(submitters.submit(() -> {
                    start.await();
                    return node.api().submit(token, operationId,
                            ApiClient.command("publish-note", arguments(directory, text))).statusCode();
                }));
            }
            start.countDown();
            for (Future<Integer> answer : answers) {
                assertThat(answer.get()).isEqualTo(202);
            }
        }

        List<String> statuses = new ArrayList<>();
        await("both notes ended").atMost(DONE).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            statuses.clear();
            for (String operationId : operations) {
                statuses.add(ApiClient.json(node.api().get(token, "/v1/operations/" + operationId)).get("status").asString());
            }
            assertThat(statuses).containsExactlyInAnyOrder("SUCCEEDED", "FAILED");
        });
        String failed = operations.get(statuses.indexOf("FAILED"));
        assertThat(statusReason(database, failed)).startsWith("publish: move_file refused: ")
                .contains("Destination already exists");
        String winner = titles.get(statuses.indexOf("SUCCEEDED"));
        assertThat(Files.readString(root.resolve(directory).resolve("release.md")))
                .isEqualTo(EDITED.replace("# Release 4.2", winner));
        assertThat(entries(directory)).containsExactlyInAnyOrder("release.md", draftOf(failed));
    }

    /**
     * The response of a call is lost: node A halts right after the tool answered, before the
     * answer is recorded ({@code after-tool-commit@<step>}), and node B takes the operation over.
     * What B does is what edit_file's repeat class says, and the file shows it: check-then-write
     * (application.yaml's seed for server {@code files}) reads the draft, sees the edit landed and
     * does not apply it again; under a server name nothing is seeded for ({@code fs}) the class
     * comes from the annotations alone, never-repeat, and the operation waits for a person; a tool
     * configured idempotent although it is not is called again, and the edit is in the note
     * twice — what a wrong class does.
     */
    @ParameterizedTest(name = "A dies at {0}, edit_file {1}")
    @CsvSource(delimiter = '|', value = {
            // crash point           | edit_file's class          | B ends in    | the file   | its edit
            "after-tool-commit@edit    | check_then_write (seeded)  | SUCCEEDED    | release.md | once",
            "after-tool-commit@edit    | never_repeat (annotations) | NEEDS_REVIEW | the draft  | once",
            "after-tool-commit@edit    | idempotent (configured)    | SUCCEEDED    | release.md | twice",
            "after-tool-commit@publish | check_then_write (seeded)  | SUCCEEDED    | release.md | once"})
    void aResumedRunAfterALostResponseRepeatsTheCallOnlyAsTheClassSays(String crashAt, String editClass,
            String status, String file, String applied) throws Exception {
        var database = TestDatabase.fresh();
        String directory = "notes/" + UUID.randomUUID();
        String server = editClass.endsWith("(seeded)") ? "files" : "fs";
        List<String> classOfEdit = editClass.endsWith("(configured)")
                ? List.of("--opledger.tools.classes.fs.edit_file.repeat-class=" + editClass.split(" ")[0])
                : List.of();
        ChildNode a = nodes.start("note-a", database, noteNode(server,
                worker(classOfEdit, "--opledger.test.crash-at=" + crashAt)));
        String token = TestTokens.mint(TestTokens.LOCAL_SECRET, claims -> claims.subject("notes-" + UUID.randomUUID()));
        String operationId = UUID.randomUUID().toString();

        var accepted = a.api().submit(token, operationId, ApiClient.command("publish-note", arguments(directory)));

        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        assertThat(a.awaitExit(DEATH)).as("node A halts at %s as SIGKILL would", crashAt).isEqualTo(137);
        String step = crashAt.substring(crashAt.indexOf('@') + 1);
        assertThat(effectRecords(database, operationId)).as("A called %s and recorded nothing of its answer", step)
                .anySatisfy(record -> assertThat(record).startsWith(step + " ").endsWith(" STARTED"));

        ChildNode b = nodes.start("note-b", database, noteNode(server, worker(classOfEdit)));

        awaitStatus(b, token, operationId, status);
        String expected = applied.equals("once") ? EDITED : EDITED_TWICE;
        Path dir = root.resolve(directory);
        if (file.equals("release.md")) {
            assertThat(Files.readString(dir.resolve("release.md"))).isEqualTo(expected);
            assertThat(entries(directory)).containsExactly("release.md");
        } else {
            assertThat(entries(directory)).as("nothing published, the draft kept").containsExactly(draftOf(operationId));
            assertThat(Files.readString(dir.resolve(draftOf(operationId)))).isEqualTo(expected);
            assertThat(statusReason(database, operationId)).startsWith("edit: ").contains("never-repeat tool fs/edit_file");
        }
    }

    private static String arguments(String directory) {
        return arguments(directory, TEXT);
    }

    private static String arguments(String directory, String text) {
        return "{\"directory\":\"" + directory + "\",\"name\":\"release.md\",\"text\":" + json(text)
                + ",\"edit\":{\"oldText\":" + json(OLD_TEXT) + ",\"newText\":" + json(NEW_TEXT) + "}}";
    }

    private static String json(String text) {
        return "\"" + text.replace("\n", "\\n") + "\"";
    }

    private static String draftOf(String operationId) {
        return ".release.md." + operationId + ".draft";
    }

    /** A node with server-filesystem as MCP server {@code files}, publish-note's server, rooted in the sandbox. */
    private static List<String> noteNode(String... extra) {
        return noteNode("files", List.of(extra));
    }

    private static List<String> noteNode(String server, List<String> extra) {
        List<String> arguments = new ArrayList<>(List.of(
                "--opledger.reference-tools.port=0", // embedded by the local profile; 8091 may be taken
                "--opledger.note.mcp-server=" + server,
                "--opledger.note.root=" + root,
                // the PostgreSQL server is shared with other test runs: no more connections than the runs need
                "--spring.datasource.hikari.maximum-pool-size=6"));
        arguments.addAll(FilesystemServerPackage.serverArguments(server, root));
        arguments.addAll(extra);
        return arguments;
    }

    /** A worker with leases short enough for a quick takeover, execution (not App Attest) under test. */
    private static List<String> worker(List<String> classes, String... extra) {
        List<String> arguments = new ArrayList<>(List.of(
                "--opledger.attest.mode=optional",
                "--opledger.worker.lease=3s",
                "--opledger.worker.heartbeat=1s"));
        arguments.addAll(classes);
        arguments.addAll(List.of(extra));
        return arguments;
    }

    private static void awaitStatus(ChildNode node, String token, String operationId, String status) {
        await("operation " + operationId + " " + status).atMost(DONE).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> {
                    var response = node.api().get(token, "/v1/operations/" + operationId);
                    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
                    assertThat(ApiClient.json(response).get("status").asString()).isEqualTo(status);
                });
    }

    private static List<String> entries(String directory) throws IOException {
        try (Stream<Path> files = Files.list(root.resolve(directory))) {
            return files.map(path -> path.getFileName().toString()).sorted().toList();
        }
    }

    /** {@code "<stepKey> <repeat class> <status>"} of each effect record of the operation, in the order they were made. */
    private static List<String> effectRecords(LocatedDatabase database, String operationId) throws SQLException {
        try (Connection db = E2eDatabase.connect(database)) {
            return E2eQueries.list(db, "SELECT r.step_key || ' ' || r.repeat_class || ' ' || r.status FROM effect_record r "
                    + "JOIN operation o ON o.id = r.operation_ref WHERE o.operation_id = ?::uuid ORDER BY r.started_at", operationId)
                    .stream().map(String.class::cast).toList();
        }
    }

    private static String statusReason(LocatedDatabase database, String operationId) throws SQLException {
        try (Connection db = E2eDatabase.connect(database)) {
            return (String) E2eQueries.list(db, "SELECT status_reason FROM operation WHERE operation_id = ?::uuid",
                    operationId).getFirst();
        }
    }
}
