package dev.opledger.e2e.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.opledger.OpledgerApplication;
import dev.opledger.classification.ClassSource;
import dev.opledger.classification.ClassificationService;
import dev.opledger.classification.ProbeDecision;
import dev.opledger.classification.ProbeOutcome;
import dev.opledger.classification.RepeatClass;
import dev.opledger.classification.ToolProbe;
import dev.opledger.classification.ToolRegistryService;
import dev.opledger.e2e.FilesystemServerPackage;
import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolRef;
import dev.opledger.testing.TestDatabaseInitializer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The double-run probe on npm's server-filesystem (over stdio, as a node starts it), with a
 * sandbox directory declared inside the server's only root: what each write tool really does
 * when run twice with the same arguments, the suggestion that follows, and an admin accepting or
 * rejecting it. What is asserted is what the server did, as its read tools showed it and as the
 * file system has it.
 */
@SpringBootTest(classes = OpledgerApplication.class, webEnvironment = SpringBootTest.WebEnvironment.MOCK)
@ActiveProfiles("test")
@ContextConfiguration(initializers = TestDatabaseInitializer.class)
class ToolProbeIT {

    private static final String FILES = "probe-files";
    /** The same server under a name that declares no sandbox. */
    private static final String UNSANDBOXED = "probe-unsandboxed";
    private static final Path ROOT = root();
    private static final Path SANDBOX = ROOT.resolve("scratch");

    @Autowired
    ToolRegistryService registry;

    @Autowired
    ClassificationService classification;

    @Autowired
    JdbcTemplate jdbc;

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry properties) throws Exception {
        FilesystemServerPackage.fetch(ROOT);
        for (String server : List.of(FILES, UNSANDBOXED)) {
            properties.add("opledger.mcp.servers." + server + ".command", () -> "npx");
            properties.add("opledger.mcp.servers." + server + ".args", () -> "-y," + FilesystemServerPackage.PACKAGE + "," + ROOT);
        }
        properties.add("opledger.tools.sandboxes." + FILES + ".directory", SANDBOX::toString);
    }

    private static Path root() {
        try {
            return Files.createTempDirectory("probe-root").toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @BeforeEach
    void discoveredAndSignedIn() {
        await().atMost(Duration.ofSeconds(60)).until(() -> classification.servers().stream()
                .filter(server -> List.of(FILES, UNSANDBOXED).contains(server.name()))
                .filter(server -> server.discoveredAt() != null).count() == 2);
        signedInAs("admin", "ROLE_ADMIN");
    }

    @AfterEach
    void signOut() {
        SecurityContextHolder.clearContext();
    }

    @Test
    void createDirectoryTwiceIsANoOpSoTheProbeSuggestsIdempotent() {
        ToolProbe probe = probed("create_directory", """
                {"arguments": {"path": "reports/2026"}}""");

        assertThat(probe.first().outcome()).isEqualTo(ToolProbe.Run.Outcome.OK);
        assertThat(probe.second().outcome()).isEqualTo(ToolProbe.Run.Outcome.OK);
        assertThat(probe.secondRun()).isEqualTo(ToolProbe.SecondRun.NO_OP);
        assertThat(probe.suggested()).isEqualTo(RepeatClass.IDEMPOTENT);
        assertThat(probe.decision()).isEqualTo(ToolProbe.Decision.OPEN);
        assertThat(probe.evidence()).contains("\"reports\"").contains("\"2026\"").contains("directory_tree");
        assertThat(Path.of(probe.sandbox()).resolve("reports/2026")).isDirectory();
        assertThat(Path.of(probe.sandbox()).getParent()).isEqualTo(SANDBOX);
        assertThat(probe.wallMillis()).isPositive();
        assertThat(probe.requestedBy()).isEqualTo("admin");
    }

    @Test
    void writeFileTwiceWithTheSameContentIsANoOpSoTheProbeSuggestsIdempotent() throws IOException {
        ToolProbe probe = probed("write_file", """
                {"arguments": {"path": "note.md", "content": "effectively once\\n"}}""");

        assertThat(probe.first().outcome()).isEqualTo(ToolProbe.Run.Outcome.OK);
        assertThat(probe.second().outcome()).isEqualTo(ToolProbe.Run.Outcome.OK);
        assertThat(probe.secondRun()).isEqualTo(ToolProbe.SecondRun.NO_OP);
        assertThat(probe.suggested()).isEqualTo(RepeatClass.IDEMPOTENT);
        assertThat(probe.evidence()).contains("read_text_file note.md").contains("effectively once");
        assertThat(Files.readString(Path.of(probe.sandbox()).resolve("note.md"))).isEqualTo("effectively once\n");
    }

    @Test
    void editFileTwiceFailsTheSecondTimeBecauseTheOldTextIsGone() throws IOException {
        ToolProbe probe = probed("edit_file", """
                {"prepare": [{"tool": "write_file", "arguments": {"path": "note.md", "content": "status: draft\\n"}}],
                 "arguments": {"path": "note.md", "edits": [{"oldText": "status: draft", "newText": "status: final"}]}}""");

        assertThat(probe.first().outcome()).isEqualTo(ToolProbe.Run.Outcome.OK);
        assertThat(probe.second().outcome()).isEqualTo(ToolProbe.Run.Outcome.ERROR);
        assertThat(probe.second().reply()).contains("Could not find exact match");
        assertThat(probe.secondRun()).isEqualTo(ToolProbe.SecondRun.FAILED);
        assertThat(probe.suggested()).isEqualTo(RepeatClass.NEVER_REPEAT);
        assertThat(Files.readString(Path.of(probe.sandbox()).resolve("note.md"))).isEqualTo("status: final\n");
    }

    /** The edit publish-note makes: its new text holds its old text, so a second run applies it again. */
    @Test
    void editFileTwiceWhoseNewTextHoldsTheOldTextChangesTheFileAgain() throws IOException {
        ToolProbe probe = probed("edit_file", """
                {"prepare": [{"tool": "write_file", "arguments": {"path": "note.md", "content": "## Changes\\n"}}],
                 "arguments": {"path": "note.md", "edits": [{"oldText": "## Changes\\n", "newText": "## Changes\\n- faster sign-in\\n"}]}}""");

        assertThat(probe.first().outcome()).isEqualTo(ToolProbe.Run.Outcome.OK);
        assertThat(probe.second().outcome()).isEqualTo(ToolProbe.Run.Outcome.OK);
        assertThat(probe.secondRun()).isEqualTo(ToolProbe.SecondRun.CHANGED_STATE);
        assertThat(probe.suggested()).isEqualTo(RepeatClass.NEVER_REPEAT);
        assertThat(Files.readString(Path.of(probe.sandbox()).resolve("note.md")))
                .isEqualTo("## Changes\n- faster sign-in\n- faster sign-in\n");
    }

    /** server-filesystem checks the destination before the source: the second run is told the destination exists. */
    @Test
    void moveFileTwiceFailsTheSecondTimeBecauseTheSourceIsGone() throws IOException {
        ToolProbe probe = probed("move_file", """
                {"prepare": [{"tool": "write_file", "arguments": {"path": "draft.md", "content": "release notes"}}],
                 "arguments": {"source": "draft.md", "destination": "final.md"}}""");

        assertThat(probe.first().outcome()).isEqualTo(ToolProbe.Run.Outcome.OK);
        assertThat(probe.second().outcome()).isEqualTo(ToolProbe.Run.Outcome.ERROR);
        assertThat(probe.second().reply()).contains("Destination already exists");
        assertThat(probe.secondRun()).isEqualTo(ToolProbe.SecondRun.FAILED);
        assertThat(probe.suggested()).isEqualTo(RepeatClass.NEVER_REPEAT);
        assertThat(Path.of(probe.sandbox()).resolve("draft.md")).doesNotExist();
        assertThat(Files.readString(Path.of(probe.sandbox()).resolve("final.md"))).isEqualTo("release notes");
    }

    @Test
    void aFirstRunThatFailsSuggestsNothing() {
        ToolProbe probe = probed("move_file", """
                {"arguments": {"source": "nothing-here.md", "destination": "final.md"}}""");

        assertThat(probe.first().outcome()).isEqualTo(ToolProbe.Run.Outcome.ERROR);
        assertThat(probe.suggested()).isNull();
        assertThat(probe.decision()).isEqualTo(ToolProbe.Decision.NONE);
        assertThat(probe.explanation()).contains("first run failed");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"arguments\": {\"path\": \"../escaped\"}}",
            "{\"arguments\": {\"path\": \"reports/../../../escaped\"}}",
            "{\"arguments\": {\"path\": \"/tmp/escaped\"}}",
            "{\"prepare\": [{\"tool\": \"write_file\", \"arguments\": {\"path\": \"/tmp/escaped\", \"content\": \"x\"}}],"
                    + " \"arguments\": {\"path\": \"ok\"}}",
            "{\"arguments\": {\"path\": 7}}",
            "not json",
            "{\"arguments\": []}"})
    void aRequestOutsideTheSandboxOrUnreadableIsRefusedWithNothingCalledOrRecorded(String request) {
        long before = probes();
        long audited = refusalsAudited();

        ProbeOutcome outcome = registry.probe(FILES, "create_directory", request);

        assertThat(outcome).isInstanceOf(ProbeOutcome.Refused.class);
        assertThat(probes()).isEqualTo(before);
        assertThat(ROOT.resolve("escaped")).doesNotExist();
        assertThat(Path.of("/tmp/escaped")).doesNotExist();
        assertThat(refusalsAudited()).isEqualTo(audited + 1);
    }

    @Test
    void aRequestLongerThan64KiBIsRefusedUnread() {
        long before = probes();
        String request = "{\"arguments\": {\"path\": \"big.md\", \"content\": \"" + "x".repeat(70_000) + "\"}}";

        assertThat(registry.probe(FILES, "write_file", request)).isInstanceOfSatisfying(ProbeOutcome.Refused.class,
                refused -> assertThat(refused.reason()).contains("longer than 65536"));
        assertThat(probes()).isEqualTo(before);
    }

    private long refusalsAudited() {
        return jdbc.queryForObject("SELECT count(*) FROM console_audit WHERE action = 'RUN_TOOL_PROBE' AND target = ? "
                + "AND detail LIKE 'refused: %'", Long.class, FILES + "/create_directory");
    }

    @Test
    void aServerWithoutASandboxAndAReadToolAreNeverProbed() {
        assertThat(registry.probe(UNSANDBOXED, "create_directory", "{\"arguments\": {\"path\": \"x\"}}"))
                .isInstanceOfSatisfying(ProbeOutcome.Refused.class, refused ->
                        assertThat(refused.reason()).contains("declares no sandbox"));
        assertThat(registry.probe(FILES, "read_text_file", "{\"arguments\": {\"path\": \"x\"}}"))
                .isInstanceOfSatisfying(ProbeOutcome.Refused.class, refused -> assertThat(refused.reason()).contains("read"));
        assertThat(registry.probe(FILES, "no_such_tool", "{}")).isInstanceOf(ProbeOutcome.Refused.class);
        assertThat(registry.sandboxed(FILES)).isTrue();
        assertThat(registry.sandboxed(UNSANDBOXED)).isFalse();
    }

    /**
     * Probes of one tool asked for at once: each runs alone (the others are told one is running),
     * so no two probes of the tool ever ran at the same time, and each one's evidence is its own.
     */
    @Test
    void probesOfOneToolAskedForAtOnceNeverRunTogether() throws Exception {
        int asked = 4;
        var start = new CountDownLatch(1);
        List<Future<ProbeOutcome>> outcomes = new ArrayList<>();
        var authentication = SecurityContextHolder.getContext().getAuthentication();
        try (var pool = Executors.newFixedThreadPool(asked)) {
            for (int i = 0; i < asked; i++) {
                outcomes.add(pool.submit(() -> {
                    SecurityContextHolder.getContext().setAuthentication(authentication);
                    start.await();
                    return registry.probe(FILES, "write_file", """
                            {"arguments": {"path": "same.md", "content": "one at a time"}}""");
                }));
            }
            start.countDown();
            List<ProbeOutcome> all = new ArrayList<>();
            for (Future<ProbeOutcome> outcome : outcomes) {
                all.add(outcome.get());
            }
            assertThat(all).allMatch(outcome -> outcome instanceof ProbeOutcome.Probed
                    || outcome instanceof ProbeOutcome.AlreadyRunning);
            List<ToolProbe> ran = all.stream().filter(ProbeOutcome.Probed.class::isInstance)
                    .map(outcome -> ((ProbeOutcome.Probed) outcome).probe())
                    .sorted(Comparator.comparing(ToolProbe::startedAt)).toList();
            assertThat(ran).isNotEmpty().allSatisfy(probe -> {
                assertThat(probe.secondRun()).isEqualTo(ToolProbe.SecondRun.NO_OP);
                assertThat(probe.evidence()).contains(probe.sandbox());
            });
            for (int i = 1; i < ran.size(); i++) {
                assertThat(ran.get(i).startedAt()).as("probe %d started after probe %d finished", ran.get(i).id(),
                        ran.get(i - 1).id()).isAfterOrEqualTo(ran.get(i - 1).finishedAt());
            }
            assertThat(ran.stream().map(ToolProbe::sandbox).distinct()).hasSameSizeAs(ran);
        }
    }

    @Test
    void acceptingASuggestionSetsTheClassWithSourceProbeAndTheGatewayFollowsIt() {
        var tool = new ToolRef(FILES, "move_file");
        long version = registry.tool(FILES, "move_file").orElseThrow().toolClass().version();
        // an earlier admin's guess the probe is to correct
        assertThat(registry.edit(FILES, "move_file", version, RepeatClass.IDEMPOTENT, null,
                registry.tool(FILES, "move_file").orElseThrow().toolClass().retry(), "e2e: a guess")).isNotNull();
        ToolProbe probe = probed("move_file", """
                {"prepare": [{"tool": "write_file", "arguments": {"path": "a.md", "content": "a"}}],
                 "arguments": {"source": "a.md", "destination": "b.md"}}""");
        long read = registry.tool(FILES, "move_file").orElseThrow().toolClass().version();

        assertThat(registry.decideProbe(probe.id(), true, read - 1, "e2e: stale"))
                .isInstanceOf(ProbeDecision.ChangedMeanwhile.class);
        assertThat(classification.classOf(tool, Optional::empty).repeatClass()).isEqualTo(RepeatClass.IDEMPOTENT);

        ProbeDecision decision = registry.decideProbe(probe.id(), true, read, "e2e: the probe shows it");

        assertThat(decision).isInstanceOfSatisfying(ProbeDecision.Decided.class, decided -> {
            assertThat(decided.probe().decision()).isEqualTo(ToolProbe.Decision.ACCEPTED);
            assertThat(decided.probe().decidedBy()).isEqualTo("admin");
            assertThat(decided.tool().toolClass().repeatClass()).isEqualTo(RepeatClass.NEVER_REPEAT);
            assertThat(decided.tool().toolClass().source()).isEqualTo(ClassSource.PROBE);
        });
        assertThat(classification.classOf(tool, () -> Optional.of(new ToolHints(false, true, false, false))))
                .as("the gateway's next lookup").satisfies(toolClass -> {
                    assertThat(toolClass.repeatClass()).isEqualTo(RepeatClass.NEVER_REPEAT);
                    assertThat(toolClass.source()).isEqualTo(ClassSource.PROBE);
                });
        assertThat(registry.decideProbe(probe.id(), false, read + 1, "e2e: again"))
                .isInstanceOfSatisfying(ProbeDecision.NotOpen.class, notOpen ->
                        assertThat(notOpen.decision()).isEqualTo(ToolProbe.Decision.ACCEPTED));
        assertThat(jdbc.queryForList("SELECT detail FROM console_audit WHERE action = 'ACCEPT_TOOL_PROBE' AND target = ?",
                String.class, FILES + "/move_file")).singleElement().asString()
                .contains("probe " + probe.id()).contains("before: IDEMPOTENT (ADMIN)").contains("after: NEVER_REPEAT (PROBE)")
                .endsWith("reason: e2e: the probe shows it");
    }

    @Test
    void rejectingASuggestionKeepsTheClass() {
        ToolProbe probe = probed("create_directory", "{\"arguments\": {\"path\": \"kept\"}}");
        var before = registry.tool(FILES, "create_directory").orElseThrow().toolClass();

        ProbeDecision decision = registry.decideProbe(probe.id(), false, before.version(), "e2e: not now");

        assertThat(decision).isInstanceOfSatisfying(ProbeDecision.Decided.class, decided ->
                assertThat(decided.probe().decision()).isEqualTo(ToolProbe.Decision.REJECTED));
        assertThat(registry.tool(FILES, "create_directory").orElseThrow().toolClass()).isEqualTo(before);
        assertThat(registry.lastProbes()).anySatisfy(last -> assertThat(last.id()).isEqualTo(probe.id()));
    }

    @Test
    void supportSeesProbesAndIsRefusedRunningOrDecidingThem() {
        ToolProbe probe = probed("create_directory", "{\"arguments\": {\"path\": \"seen\"}}");
        long version = registry.tool(FILES, "create_directory").orElseThrow().toolClass().version();
        signedInAs("support", "ROLE_SUPPORT");
        long before = probes();

        assertThat(registry.lastProbes()).anySatisfy(last -> assertThat(last.id()).isEqualTo(probe.id()));
        assertThatThrownBy(() -> registry.probe(FILES, "create_directory", "{\"arguments\": {\"path\": \"x\"}}"))
                .isInstanceOf(AccessDeniedException.class);
        assertThatThrownBy(() -> registry.decideProbe(probe.id(), true, version, "support tries"))
                .isInstanceOf(AccessDeniedException.class);

        assertThat(probes()).isEqualTo(before);
        assertThat(jdbc.queryForObject("SELECT decision FROM tool_probe WHERE id = ?", String.class, probe.id()))
                .isEqualTo("OPEN");
    }

    /**
     * Not a test of a time limit: ten probes of write_file in a row, their recorded wall times
     * printed for docs/tools.md (and each one asserted to have been recorded).
     */
    @Test
    void wallTimeOfProbes() {
        List<Long> walls = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            walls.add(probed("write_file", "{\"arguments\": {\"path\": \"timed.md\", \"content\": \"" + i + "\"}}")
                    .wallMillis());
        }
        long[] sorted = walls.stream().mapToLong(Long::longValue).sorted().toArray();
        System.out.printf("probe wall time (write_file on server-filesystem, 10 probes): min %d ms, median %d ms, max %d ms%n",
                sorted[0], sorted[sorted.length / 2], sorted[sorted.length - 1]);
        assertThat(LongStream.of(sorted)).allMatch(wall -> wall > 0);
    }

    private ToolProbe probed(String tool, String request) {
        ProbeOutcome outcome = registry.probe(FILES, tool, request);
        assertThat(outcome).as("%s", outcome).isInstanceOf(ProbeOutcome.Probed.class);
        ToolProbe probe = ((ProbeOutcome.Probed) outcome).probe();
        assertThat(probe.status()).isEqualTo(ToolProbe.Status.DONE);
        assertThat(jdbc.queryForObject("SELECT status FROM tool_probe WHERE id = ?", String.class, probe.id()))
                .as("recorded").isEqualTo("DONE");
        return probe;
    }

    private long probes() {
        return jdbc.queryForObject("SELECT count(*) FROM tool_probe", Long.class);
    }

    private static void signedInAs(String name, String role) {
        SecurityContextHolder.getContext().setAuthentication(
                UsernamePasswordAuthenticationToken.authenticated(name, "n/a", AuthorityUtils.createAuthorityList(role)));
    }
}
