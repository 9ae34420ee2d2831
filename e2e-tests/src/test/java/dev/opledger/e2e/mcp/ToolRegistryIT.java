package dev.opledger.e2e.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.OpledgerApplication;
import dev.opledger.claim.ClaimService;
import dev.opledger.claim.LifecycleService;
import dev.opledger.classification.ChangeResolution;
import dev.opledger.classification.ClassSource;
import dev.opledger.classification.ClassificationService;
import dev.opledger.classification.Discovery;
import dev.opledger.classification.LandedCheck;
import dev.opledger.classification.RegisteredServer;
import dev.opledger.classification.RegisteredTool;
import dev.opledger.classification.RepeatClass;
import dev.opledger.classification.RetryPolicy;
import dev.opledger.classification.ToolChange;
import dev.opledger.effect.Effect;
import dev.opledger.effect.EffectGateway;
import dev.opledger.effect.EffectOutcome;
import dev.opledger.e2e.FilesystemServerPackage;
import dev.opledger.mcp.ToolRef;
import dev.opledger.operation.Fence;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.Operations;
import dev.opledger.testing.TestDatabaseInitializer;
import dev.opledger.tools.ReferenceToolsServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The tool registry of a node against real servers: the reference tool server over streamable
 * HTTP, npm's server-filesystem over stdio, and a URL where nothing listens. The node discovers
 * them when it starts; a test that changes what the registry holds discovers again on demand.
 */
@SpringBootTest(classes = OpledgerApplication.class, webEnvironment = SpringBootTest.WebEnvironment.MOCK)
@ActiveProfiles("test")
@ContextConfiguration(initializers = TestDatabaseInitializer.class)
class ToolRegistryIT {

    private static final String REFERENCE = "registry-reference";
    private static final String FILES = "registry-files";
    private static final String DOWN = "registry-down";
    /** The reference server again, under names whose registry entries the tests below change. */
    private static final String CHANGES = "registry-changes";
    private static final String REMOVALS = "registry-removals";
    private static final String CONCURRENT = "registry-concurrent";
    private static final String REVIEWS = "registry-reviews";
    /** The reference server in the 2025-11-25 revision, whose client has one timeout for every call. */
    private static final String CLASSIC = "registry-classic";
    private static final Path SANDBOX = sandbox();

    @Autowired
    ClassificationService classification;

    @Autowired
    EffectGateway gateway;

    @Autowired
    ClaimService claims;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    JdbcTemplate jdbc;

    final ReferenceToolsServer server = ReferenceToolsFixture.server();

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry registry) throws Exception {
        FilesystemServerPackage.fetch(SANDBOX);
        registry.add("opledger.mcp.servers." + REFERENCE + ".url", () -> ReferenceToolsFixture.server().url().toString());
        registry.add("opledger.mcp.servers." + REFERENCE + ".timeout", () -> "10s");
        registry.add("opledger.mcp.servers." + CHANGES + ".url", () -> ReferenceToolsFixture.server().url().toString());
        registry.add("opledger.mcp.servers." + REMOVALS + ".url", () -> ReferenceToolsFixture.server().url().toString());
        registry.add("opledger.mcp.servers." + CONCURRENT + ".url", () -> ReferenceToolsFixture.server().url().toString());
        registry.add("opledger.mcp.servers." + REVIEWS + ".url", () -> ReferenceToolsFixture.server().url().toString());
        registry.add("opledger.mcp.servers." + CLASSIC + ".url", () -> ReferenceToolsFixture.server().url().toString());
        registry.add("opledger.mcp.servers." + CLASSIC + ".protocol", () -> "2025-11-25");
        registry.add("opledger.mcp.servers." + CLASSIC + ".timeout", () -> "10s");
        registry.add("opledger.tools.classes." + CLASSIC + ".set_shipping_address.repeat-class", () -> "idempotent");
        registry.add("opledger.tools.classes." + CLASSIC + ".set_shipping_address.call-timeout", () -> "1s");
        registry.add("opledger.tools.classes." + CLASSIC + ".set_shipping_address.backoff", () -> "0ms");
        registry.add("opledger.mcp.servers." + FILES + ".command", () -> "npx");
        registry.add("opledger.mcp.servers." + FILES + ".args",
                () -> "-y," + FilesystemServerPackage.PACKAGE + "," + SANDBOX);
        String nobody = ReferenceToolsFixture.nobodyListening().toString();
        registry.add("opledger.mcp.servers." + DOWN + ".url", () -> nobody);
        registry.add("opledger.mcp.servers." + DOWN + ".timeout", () -> "2s");
        String classes = "opledger.tools.classes." + REFERENCE;
        registry.add(classes + ".reserve_inventory.repeat-class", () -> "keyed");
        registry.add(classes + ".reserve_inventory.max-calls", () -> "1");
        registry.add(classes + ".set_shipping_address.repeat-class", () -> "idempotent");
        registry.add(classes + ".set_shipping_address.call-timeout", () -> "1s");
        registry.add(classes + ".set_shipping_address.backoff", () -> "0ms");
        registry.add(classes + ".adjust_points.repeat-class", () -> "check_then_write");
        registry.add(classes + ".adjust_points.check-tool", () -> "get_points");
        registry.add(classes + ".adjust_points.check-arguments", () -> "account");
        registry.add(classes + ".adjust_points.check-landed-field", () -> "applied");
        registry.add(classes + ".adjust_points.check-result-fields", () -> "applied,balance,appliedAdjustment");
    }

    private static Path sandbox() {
        try {
            return Files.createTempDirectory("registry-sandbox").toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @BeforeEach
    void discoveredAtStart() {
        await().atMost(Duration.ofSeconds(60)).until(() -> classification.servers().stream()
                .filter(server -> List.of(REFERENCE, FILES, DOWN, CHANGES, REMOVALS, CONCURRENT, CLASSIC, REVIEWS).contains(server.name()))
                .filter(server -> server.discoveredAt() != null || server.discoveryError() != null).count() == 8);
    }

    @AfterEach
    void clearFaults() {
        server.faults().clear();
    }

    private RegisteredTool tool(String server, String name) {
        return classification.tool(new ToolRef(server, name)).orElseThrow(() -> new AssertionError(server + "/" + name
                + " is not in the registry"));
    }

    private RegisteredServer server(String name) {
        return classification.servers().stream().filter(server -> server.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void everyToolOfTheReferenceServerIsRegisteredWithItsSchemaAnnotationsAndFirstClass() {
        assertThat(server(REFERENCE)).satisfies(server -> {
            assertThat(server.transport()).isEqualTo("HTTP");
            assertThat(server.discoveryError()).isNull();
            assertThat(server.tools()).isGreaterThanOrEqualTo(8);
        });
        assertThat(tool(REFERENCE, "get_product")).satisfies(tool -> {
            assertThat(tool.toolClass().repeatClass()).isEqualTo(RepeatClass.READ);
            assertThat(tool.toolClass().source()).isEqualTo(ClassSource.ANNOTATION);
            assertThat(tool.hints().readOnly()).isTrue();
            assertThat(tool.inputSchema()).extractingByKey("properties").asInstanceOf(
                    org.assertj.core.api.InstanceOfAssertFactories.MAP).containsKey("sku");
            assertThat(tool.listed()).isTrue();
            assertThat(tool.flagged()).isFalse();
        });
        assertThat(tool(REFERENCE, "send_message").toolClass()).satisfies(toolClass -> {
            assertThat(toolClass.repeatClass()).isEqualTo(RepeatClass.NEVER_REPEAT);
            assertThat(toolClass.source()).isEqualTo(ClassSource.ANNOTATION);
            assertThat(toolClass.retry()).isEqualTo(RetryPolicy.DEFAULTS);
        });
        assertThat(tool(REFERENCE, "reserve_inventory").toolClass()).satisfies(toolClass -> {
            assertThat(toolClass.repeatClass()).isEqualTo(RepeatClass.KEYED);
            assertThat(toolClass.source()).isEqualTo(ClassSource.CONFIGURATION);
            assertThat(toolClass.retry().maxCalls()).isEqualTo(1);
        });
        assertThat(tool(REFERENCE, "adjust_points").toolClass().check())
                .isEqualTo(new LandedCheck("get_points", List.of("account"), "applied",
                        List.of("applied", "balance", "appliedAdjustment")));
    }

    @Test
    void serverFilesystemsToolsGetTheirFirstClassFromTheirAnnotations() {
        assertThat(server(FILES)).satisfies(server -> {
            assertThat(server.transport()).isEqualTo("STDIO");
            assertThat(server.discoveryError()).isNull();
        });
        assertThat(tool(FILES, "create_directory").toolClass().repeatClass()).isEqualTo(RepeatClass.IDEMPOTENT);
        assertThat(tool(FILES, "write_file")).satisfies(tool -> {
            assertThat(tool.toolClass().repeatClass()).isEqualTo(RepeatClass.IDEMPOTENT);
            assertThat(tool.hints().destructive()).isTrue();
            assertThat(tool.inputSchema()).extractingByKey("properties").asInstanceOf(
                    org.assertj.core.api.InstanceOfAssertFactories.MAP).containsKeys("path", "content");
        });
        assertThat(tool(FILES, "edit_file").toolClass().repeatClass()).isEqualTo(RepeatClass.NEVER_REPEAT);
        assertThat(tool(FILES, "move_file").toolClass().repeatClass()).isEqualTo(RepeatClass.NEVER_REPEAT);
        assertThat(tool(FILES, "read_text_file").toolClass().repeatClass()).isEqualTo(RepeatClass.READ);
        assertThat(classification.tools(FILES)).allSatisfy(tool -> {
            assertThat(tool.toolClass().source()).isEqualTo(ClassSource.ANNOTATION);
            assertThat(tool.flagged()).isFalse();
        });
    }

    @Test
    void aServerThatCannotBeReachedIsReportedWithWhy() {
        Discovery discovery = classification.discover(DOWN);

        assertThat(discovery.succeeded()).isFalse();
        assertThat(discovery.error()).contains("cannot be reached");
        assertThat(server(DOWN).discoveryError()).contains("cannot be reached");
        assertThat(classification.tools(DOWN)).isEmpty();
    }

    @Test
    void aChangedSchemaOrAnnotationOfAClassifiedToolIsFlaggedAndNotApplied() {
        String listedSchema = jdbc.queryForObject("SELECT input_schema::text FROM tool_classification "
                + "WHERE server = ? AND tool = 'release_inventory'", String.class, CHANGES);
        // as if an earlier version of the server had listed release_inventory as not idempotent, with another schema
        jdbc.update("""
                UPDATE tool_classification SET input_schema = '{"type":"object"}', annotations = '{"idempotentHint":false}',
                    repeat_class = 'NEVER_REPEAT' WHERE server = ? AND tool = 'release_inventory'
                """, CHANGES);

        Discovery first = classification.discover(CHANGES);
        Discovery again = classification.discover(CHANGES);

        assertThat(first.flagged()).isEqualTo(2);
        assertThat(again.flagged()).isEqualTo(2);
        RegisteredTool release = tool(CHANGES, "release_inventory");
        assertThat(release.openChanges()).extracting(ToolChange::kind)
                .containsExactlyInAnyOrder(ToolChange.Kind.SCHEMA, ToolChange.Kind.ANNOTATIONS);
        assertThat(release.openChanges()).filteredOn(change -> change.kind() == ToolChange.Kind.ANNOTATIONS)
                .singleElement().satisfies(change -> {
                    assertThat(change.recorded()).isEqualTo("{\"idempotentHint\": false}");
                    assertThat(change.listed()).contains("\"idempotentHint\": true");
                });
        assertThat(release.openChanges()).filteredOn(change -> change.kind() == ToolChange.Kind.SCHEMA)
                .singleElement().satisfies(change -> assertThat(change.listed()).isEqualTo(listedSchema));
        // not applied: the registry keeps its schema and its class until a person decides
        assertThat(release.inputSchema()).isEqualTo(Map.of("type", "object"));
        assertThat(release.toolClass().repeatClass()).isEqualTo(RepeatClass.NEVER_REPEAT);
        assertThat(classification.classOf(new ToolRef(CHANGES, "release_inventory"), java.util.Optional::empty)
                .repeatClass()).isEqualTo(RepeatClass.NEVER_REPEAT);
        // one open change per kind, refreshed by the second discovery rather than repeated
        assertThat(jdbc.queryForObject("SELECT count(*) FROM tool_change WHERE server = ? AND tool = 'release_inventory'",
                Integer.class, CHANGES)).isEqualTo(2);
        assertThat(server(CHANGES).openChanges()).isEqualTo(2);
        assertThat(tool(CHANGES, "get_product").flagged()).isFalse();
    }

    @Test
    void aToolTheServerNoLongerListsIsFlaggedAsRemoved() {
        jdbc.update("""
                INSERT INTO tool_classification (server, tool, repeat_class, source, reason, input_schema, annotations)
                VALUES (?, 'retired_tool', 'NEVER_REPEAT', 'ANNOTATION', 'listed once', '{"type":"object"}', '{}')
                """, REMOVALS);

        Discovery discovery = classification.discover(REMOVALS);

        assertThat(discovery.flagged()).isEqualTo(1);
        assertThat(tool(REMOVALS, "retired_tool")).satisfies(tool -> {
            assertThat(tool.listed()).isFalse();
            assertThat(tool.openChanges()).extracting(ToolChange::kind).containsExactly(ToolChange.Kind.REMOVED);
        });
    }

    @Test
    void theGatewayMakesAsManyCallsAsTheToolsRetryPolicyAllows() {
        Fence fence = leased();
        server.faults().inject("reserve_inventory", "drop-response*1");

        var outcome = gateway.perform(new Effect(fence, "reserve", new ToolRef(REFERENCE, "reserve_inventory"),
                Map.of("sku", "SKU-ESPRESSO", "quantity", 1), null));

        // keyed would be called again with its key; its policy allows one call
        assertThat(outcome).isInstanceOfSatisfying(EffectOutcome.NeedsReview.class,
                review -> assertThat(review.reason()).contains("in 1 calls"));
        assertThat(server.effects().count("reserve_inventory", fence.operationId().toString(), "reserve")).isEqualTo(1);
        assertThat(calls(fence, "reserve")).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {REFERENCE, CLASSIC})
    void theGatewayGivesUpOnACallAfterTheToolsCallTimeoutAndCallsAgain(String serverName) {
        Fence fence = leased();
        server.faults().inject("set_shipping_address", "delay:6000*1");
        long started = System.nanoTime();

        var outcome = gateway.perform(new Effect(fence, "ship-to", new ToolRef(serverName, "set_shipping_address"),
                Map.of("orderId", "order-" + UUID.randomUUID(), "address", "1 Analytical Engine Way"), null));

        long tookMillis = (System.nanoTime() - started) / 1_000_000;
        assertThat(outcome).isInstanceOf(EffectOutcome.Done.class);
        // the first call is cut short after the tool's 1 s (the server's own timeout is 10 s, the slow call
        // takes 6 s); a later one may be slow too on a busy machine, within the default 3 calls
        assertThat(calls(fence, "ship-to")).isBetween(2, 3);
        assertThat(tookMillis).isLessThan(6000);
    }

    @Test
    void theGatewayChecksACheckThenWriteToolWithTheCheckTheRegistryDeclares() {
        Fence fence = leased();
        server.faults().inject("adjust_points", "drop-response*1");
        String account = "account-" + UUID.randomUUID();

        // no check from the step: the gateway derives it from the registry's entry for adjust_points
        var outcome = gateway.perform(new Effect(fence, "points", new ToolRef(REFERENCE, "adjust_points"),
                Map.of("account", account, "delta", 25), null));

        assertThat(outcome).isInstanceOfSatisfying(EffectOutcome.Done.class, done -> {
            assertThat(done.fromRecord()).isTrue();
            assertThat(done.result()).containsOnlyKeys("account", "applied", "balance", "appliedAdjustment")
                    .containsEntry("account", account).containsEntry("applied", true).containsEntry("balance", 25);
        });
        assertThat(server.effects().count("adjust_points", fence.operationId().toString(), "points")).isEqualTo(1);
        assertThat(calls(fence, "points")).isEqualTo(1);
    }

    @Test
    void concurrentDiscoveriesOfOneServerFlagEachChangeOnce() throws Exception {
        jdbc.update("""
                UPDATE tool_classification SET annotations = '{"readOnlyHint":false}'
                WHERE server = ? AND tool = 'get_product'
                """, CONCURRENT);
        var pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            var discoveries = pool.invokeAll(java.util.Collections.nCopies(4,
                    (java.util.concurrent.Callable<Discovery>) () -> classification.discover(CONCURRENT)));
            for (var discovery : discoveries) {
                assertThat(discovery.get().succeeded()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(jdbc.queryForObject("""
                SELECT count(*) FROM tool_change WHERE server = ? AND tool = 'get_product' AND kind = 'ANNOTATIONS'
                """, Integer.class, CONCURRENT)).isEqualTo(1);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM tool_classification WHERE server = ? AND tool = 'get_product'",
                Integer.class, CONCURRENT)).isEqualTo(1);
    }

    @Test
    void acceptingAnAnnotationsChangeAppliesItAndTheClassItGives() {
        jdbc.update("""
                UPDATE tool_classification SET annotations = '{"readOnlyHint":false}', read_only_hint = false,
                    repeat_class = 'NEVER_REPEAT' WHERE server = ? AND tool = 'get_product'
                """, REVIEWS);
        classification.discover(REVIEWS);
        RegisteredTool flagged = tool(REVIEWS, "get_product");
        ToolChange change = flagged.openChanges().getFirst();

        var resolution = classification.resolve(change.id(), true, "admin", "the server corrected its hints");

        assertThat(resolution).isInstanceOfSatisfying(ChangeResolution.Resolved.class, resolved -> {
            assertThat(resolved.status()).isEqualTo(ToolChange.Status.ACCEPTED);
            assertThat(resolved.tool().hints().readOnly()).isTrue();
            assertThat(resolved.tool().toolClass().repeatClass()).isEqualTo(RepeatClass.READ);
            assertThat(resolved.tool().toolClass().version()).isGreaterThan(flagged.toolClass().version());
            assertThat(resolved.tool().openChanges()).isEmpty();
        });
        assertThat(classification.classOf(new ToolRef(REVIEWS, "get_product"), java.util.Optional::empty).repeatClass())
                .isEqualTo(RepeatClass.READ);
        assertThat(classification.discover(REVIEWS).flagged()).isZero();
        assertThat(classification.resolve(change.id(), false, "admin", "changed my mind"))
                .isEqualTo(new ChangeResolution.AlreadyResolved(change.id(), ToolChange.Status.ACCEPTED));
    }

    @Test
    void rejectingAChangeKeepsTheRegistryAndTheSameListingIsNotFlaggedAgain() {
        jdbc.update("""
                UPDATE tool_classification SET annotations = '{"idempotentHint":false}', repeat_class = 'NEVER_REPEAT'
                WHERE server = ? AND tool = 'set_shipping_address'
                """, REVIEWS);
        classification.discover(REVIEWS);
        ToolChange change = tool(REVIEWS, "set_shipping_address").openChanges().getFirst();

        var resolution = classification.resolve(change.id(), false, "admin", "we do not trust this server's hints");

        assertThat(resolution).isInstanceOfSatisfying(ChangeResolution.Resolved.class, resolved -> {
            assertThat(resolved.status()).isEqualTo(ToolChange.Status.REJECTED);
            assertThat(resolved.tool().toolClass().repeatClass()).isEqualTo(RepeatClass.NEVER_REPEAT);
            assertThat(resolved.tool().openChanges()).isEmpty();
        });
        assertThat(classification.discover(REVIEWS).flagged()).isZero();
        assertThat(tool(REVIEWS, "set_shipping_address").openChanges()).isEmpty();
        assertThat(classification.resolve(Long.MAX_VALUE, true, "admin", "no such change"))
                .isEqualTo(new ChangeResolution.NotFound(Long.MAX_VALUE));
    }

    @Test
    void twoPeopleResolvingOneChangeAtOnceResolveItOnce() throws Exception {
        jdbc.update("""
                UPDATE tool_classification SET input_schema = '{"type":"object"}' WHERE server = ? AND tool = 'send_message'
                """, REVIEWS);
        classification.discover(REVIEWS);
        long id = tool(REVIEWS, "send_message").openChanges().getFirst().id();
        var start = new java.util.concurrent.CountDownLatch(1);
        var pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        List<ChangeResolution> resolutions;
        try {
            var accept = pool.submit(() -> {
                start.await();
                return classification.resolve(id, true, "admin-1", "the new schema is right");
            });
            var reject = pool.submit(() -> {
                start.await();
                return classification.resolve(id, false, "admin-2", "the new schema is wrong");
            });
            start.countDown();
            resolutions = List.of(accept.get(), reject.get());
        } finally {
            pool.shutdownNow();
        }

        assertThat(resolutions).filteredOn(ChangeResolution.Resolved.class::isInstance).hasSize(1);
        assertThat(resolutions).filteredOn(ChangeResolution.AlreadyResolved.class::isInstance).hasSize(1);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM tool_change WHERE id = ? AND status <> 'OPEN'", Integer.class,
                id)).isEqualTo(1);
    }

    private Fence leased() {
        var subject = new SubjectId("registry-" + UUID.randomUUID());
        OperationId operationId = Operations.claim(claims, subject, 1).getFirst();
        return Operations.lease(lifecycle, "registry-node", operationId).fence();
    }

    private int calls(Fence fence, String stepKey) {
        return jdbc.queryForObject("SELECT e.calls FROM effect_record e JOIN operation o ON o.id = e.operation_ref "
                + "WHERE o.operation_id = ? AND e.step_key = ?", Integer.class, fence.operationId().value(), stepKey);
    }
}
