package dev.opledger.e2e.mcp;

import static dev.opledger.e2e.mcp.ReferenceToolsFixture.step;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.claim.ClaimService;
import dev.opledger.claim.LifecycleService;
import dev.opledger.classification.ClassSource;
import dev.opledger.classification.ClassificationService;
import dev.opledger.classification.RepeatClass;
import dev.opledger.effect.Effect;
import dev.opledger.effect.EffectCheck;
import dev.opledger.effect.EffectGateway;
import dev.opledger.effect.EffectOutcome;
import dev.opledger.mcp.ToolClient;
import dev.opledger.mcp.ToolRef;
import dev.opledger.mcp.ToolReply;
import dev.opledger.mcp.internal.McpToolClient;
import dev.opledger.operation.Fence;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.OpledgerApplication;
import dev.opledger.testing.Operations;
import dev.opledger.testing.TestDatabaseInitializer;
import dev.opledger.tools.ReferenceToolsServer;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The real effect gateway of a node, over the real MCP client, against the reference tool
 * server, with a response dropped after the effect committed: each repeat class converges on one
 * effect, as the server's effect log counts them. Keyed and check-then-write classes are
 * configured (as {@code EffectGatewayIT} does); idempotent and never-repeat come from the tools'
 * annotations through {@link ToolClient#hints}. Subclasses pick the revision.
 *
 * <p>The node's context as {@code NodeIntegrationTest} makes it, with a mock web environment: this
 * module's class path holds the console (Vaadin), whose dev mode a web server would start.
 */
@SpringBootTest(classes = OpledgerApplication.class, webEnvironment = SpringBootTest.WebEnvironment.MOCK)
@ActiveProfiles("test")
@ContextConfiguration(initializers = TestDatabaseInitializer.class)
abstract class EffectGatewayOverMcp {

    @Autowired
    EffectGateway gateway;

    @Autowired
    ToolClient tools;

    @Autowired
    ClassificationService classification;

    @Autowired
    ClaimService claims;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    JdbcTemplate jdbc;

    final ReferenceToolsServer server = ReferenceToolsFixture.server();
    long ref;
    Fence fence;
    OperationId operationId;

    /** The server's name in configuration, one per revision so their classifications stay apart. */
    abstract String serverName();

    abstract String protocol();

    static void configure(DynamicPropertyRegistry registry, String name, String protocol) {
        String servers = "opledger.mcp.servers." + name;
        registry.add(servers + ".url", () -> ReferenceToolsFixture.server().url().toString());
        registry.add(servers + ".protocol", () -> protocol);
        registry.add(servers + ".timeout", () -> "10s");
        String classes = "opledger.tools.classes." + name;
        registry.add(classes + ".reserve_inventory.repeat-class", () -> "keyed");
        registry.add(classes + ".adjust_points.repeat-class", () -> "check_then_write");
        registry.add(classes + ".adjust_points.check-tool", () -> "get_points");
        registry.add("opledger.effects.backoff", () -> "10ms");
    }

    @BeforeEach
    void claimAnOperation() {
        var subject = new SubjectId("mcp-effects-" + UUID.randomUUID());
        operationId = Operations.claim(claims, subject, 1).getFirst();
        ref = jdbc.queryForObject("SELECT id FROM operation WHERE subject_id = ? AND operation_id = ?", Long.class,
                subject.value(), operationId.value());
        fence = Operations.lease(lifecycle, "mcp-effects-node", operationId).fence();
    }

    @AfterEach
    void clearFaults() {
        server.faults().clear();
    }

    private ToolRef tool(String name) {
        return new ToolRef(serverName(), name);
    }

    private Effect effect(String tool, String stepKey, Map<String, Object> arguments) {
        return new Effect(fence, stepKey, tool(tool), arguments, null);
    }

    private int effects(String tool, String stepKey) {
        return server.effects().count(tool, operationId.toString(), stepKey);
    }

    private Map<String, Object> record(String stepKey) {
        return jdbc.queryForMap("SELECT status, calls FROM effect_record WHERE operation_ref = ? AND step_key = ?", ref,
                stepKey);
    }

    @Test
    void speaksTheRevisionConfigured() throws Exception {
        gateway.perform(effect("get_product", "look", Map.of("sku", "SKU-MUG")));

        assertThat(((McpToolClient) tools).protocol(serverName()).map(Object::toString)).contains(protocol());
    }

    @Test
    void aKeyedToolIsCalledAgainWithItsKeyAndReplaysTheCommittedReservation() {
        server.faults().inject("reserve_inventory", "drop-response*1");

        var outcome = gateway.perform(effect("reserve_inventory", "reserve", Map.of("sku", "SKU-ESPRESSO", "quantity", 1)));

        assertThat(outcome).isInstanceOfSatisfying(EffectOutcome.Done.class, done -> {
            assertThat(done.fromRecord()).isFalse();
            assertThat(done.result()).containsEntry("replayed", true);
            assertThat(server.effects().ofOperation(operationId.toString())).singleElement()
                    .satisfies(effect -> assertThat(effect.resultId()).isEqualTo(done.result().get("reservationId")));
        });
        assertThat(effects("reserve_inventory", "reserve")).isEqualTo(1);
        assertThat(record("reserve")).containsEntry("status", "SUCCEEDED").containsEntry("calls", 2);
    }

    @Test
    void anIdempotentToolIsCalledAgainAndChangesNothingTheSecondTime() {
        server.faults().inject("set_shipping_address", "drop-response*1");
        String order = "order-" + UUID.randomUUID();

        var outcome = gateway.perform(effect("set_shipping_address", "ship-to",
                Map.of("orderId", order, "address", "1 Analytical Engine Way")));

        assertThat(classification.classOf(tool("set_shipping_address"), Optional::empty))
                .satisfies(toolClass -> {
                    assertThat(toolClass.repeatClass()).isEqualTo(RepeatClass.IDEMPOTENT);
                    assertThat(toolClass.source()).isEqualTo(ClassSource.ANNOTATION);
                });
        assertThat(outcome).isInstanceOfSatisfying(EffectOutcome.Done.class,
                done -> assertThat(done.result()).containsEntry("orderId", order).containsEntry("changed", false));
        assertThat(effects("set_shipping_address", "ship-to")).isEqualTo(1);
    }

    @Test
    void aCheckThenWriteToolIsCheckedAfterTheLostResponseAndNotWrittenAgain() {
        server.faults().inject("adjust_points", "drop-response*1");
        String account = "account-" + UUID.randomUUID();
        EffectCheck check = () -> {
            ToolReply reply = tools.call(tool("get_points"),
                    step(operationId.toString(), "points", "account", account));
            return Boolean.TRUE.equals(reply.content().get("applied")) ? Optional.of(reply.content()) : Optional.empty();
        };

        var outcome = gateway.perform(new Effect(fence, "points", tool("adjust_points"),
                Map.of("account", account, "delta", 25), check));

        assertThat(outcome).isInstanceOfSatisfying(EffectOutcome.Done.class, done -> {
            assertThat(done.fromRecord()).isTrue();
            assertThat(done.result()).containsEntry("applied", true).containsEntry("balance", 25);
        });
        assertThat(effects("adjust_points", "points")).isEqualTo(1);
        assertThat(record("points")).containsEntry("status", "SUCCEEDED").containsEntry("calls", 1);
    }

    @Test
    void aNeverRepeatToolNeedsReviewAfterTheLostResponseAndSendsOneMessage() {
        server.faults().inject("send_message", "drop-response*1");
        var message = effect("send_message", "receipt", Map.of("to", "ada@example.org", "text", "Your receipt"));

        var outcome = gateway.perform(message);
        var resumed = gateway.perform(message);

        assertThat(classification.classOf(tool("send_message"), Optional::empty).repeatClass())
                .isEqualTo(RepeatClass.NEVER_REPEAT);
        assertThat(outcome).isInstanceOfSatisfying(EffectOutcome.NeedsReview.class,
                review -> assertThat(review.reason()).contains("got no answer").contains("response was lost"));
        assertThat(resumed).isInstanceOfSatisfying(EffectOutcome.NeedsReview.class,
                review -> assertThat(review.reason()).contains("outcome is unknown"));
        assertThat(effects("send_message", "receipt")).isEqualTo(1);
        assertThat(record("receipt")).containsEntry("status", "STARTED").containsEntry("calls", 1);
    }

    @Test
    void aToolsRefusalIsRecordedAsFailedWithoutAnEffect() {
        var outcome = gateway.perform(effect("reserve_inventory", "reserve", Map.of("sku", "SKU-NONE", "quantity", 1)));

        assertThat(outcome).isInstanceOfSatisfying(EffectOutcome.Refused.class,
                refused -> assertThat(refused.error()).contains("SKU-NONE"));
        assertThat(record("reserve")).containsEntry("status", "FAILED");
        assertThat(server.effects().ofOperation(operationId.toString())).isEmpty();
    }
}
