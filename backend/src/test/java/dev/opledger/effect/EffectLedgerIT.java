package dev.opledger.effect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.claim.ClaimService;
import dev.opledger.claim.LifecycleService;
import dev.opledger.classification.RepeatClass;
import dev.opledger.mcp.ToolClient;
import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolRef;
import dev.opledger.mcp.ToolReply;
import dev.opledger.mcp.ToolTransportException;
import dev.opledger.operation.Fence;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.Operations;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.AuthenticationCredentialsNotFoundException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.test.context.TestPropertySource;

/** The effect records as the console reads them, written by the real gateway. */
@NodeIntegrationTest
// the same classes as EffectGatewayIT, so both run in one context
@TestPropertySource(properties = {
    "opledger.tools.classes.shop.reserve_inventory.repeat-class=keyed",
    "opledger.tools.classes.shop.adjust_points.repeat-class=check_then_write",
    "opledger.tools.classes.shop.adjust_points.check-tool=get_points"})
class EffectLedgerIT {

    private static final String LONG_NAME = "x".repeat(EffectLedger.MAX_TEXT_LENGTH * 2);

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    EffectLedger ledger;

    @Autowired
    ClaimService claims;

    @Autowired
    ApplicationContext node;

    OperationId operationId;
    Fence fence;

    @BeforeEach
    void claimAnOperation() {
        var subject = new SubjectId("effect-ledger-" + UUID.randomUUID());
        operationId = Operations.claim(claims, subject, 1, "checkout", "{}").getFirst();
        fence = Operations.lease(lifecycle, "ledger-node", operationId).fence();
    }

    @AfterEach
    void signOut() {
        SecurityContextHolder.clearContext();
    }

    @Test
    void recordsTellEachStepsClassOutcomeAndCallsWithLongResultsCut() {
        ToolClient tools = new ToolClient() {
            private int calls;

            @Override
            public ToolReply call(ToolRef tool, Map<String, Object> arguments) throws ToolTransportException {
                calls++;
                return switch (tool.tool()) {
                    case "reserve_inventory" -> new ToolReply(false, Map.of("reservation", LONG_NAME), "ok");
                    case "capture_payment" -> new ToolReply(true, Map.of(), "card declined");
                    default -> throw new ToolTransportException("read timed out after call " + calls);
                };
            }

            @Override
            public Optional<ToolHints> hints(ToolRef tool) {
                return Optional.empty();
            }
        };
        var gateway = TestGateways.over(node, tools);
        gateway.perform(new Effect(fence, "reserve", new ToolRef("shop", "reserve_inventory"), Map.of(), null));
        gateway.perform(new Effect(fence, "capture", new ToolRef("shop", "capture_payment"), Map.of(), null));
        gateway.perform(new Effect(fence, "receipt", new ToolRef("shop", "send_message"), Map.of(), null));
        OperationId other = Operations.claim(claims, new SubjectId("effect-ledger-" + UUID.randomUUID()), 1, "checkout",
                "{}").getFirst();
        gateway.perform(new Effect(Operations.lease(lifecycle, "ledger-node", other).fence(), "other",
                new ToolRef("shop", "reserve_inventory"), Map.of(), null));
        signedInAs("ROLE_SUPPORT");

        var records = ledger.recordsOf(operationId);

        assertThat(records).extracting(RecordedEffect::stepKey).containsExactly("reserve", "capture", "receipt");
        assertThat(records.get(0)).satisfies(reserve -> {
            assertThat(reserve.server()).isEqualTo("shop");
            assertThat(reserve.tool()).isEqualTo("reserve_inventory");
            assertThat(reserve.repeatClass()).isEqualTo(RepeatClass.KEYED);
            assertThat(reserve.status()).isEqualTo(EffectStatus.SUCCEEDED);
            assertThat(reserve.idempotencyKey()).isEqualTo(operationId + ":reserve");
            assertThat(reserve.calls()).isEqualTo(1);
            assertThat(reserve.finishedAt()).isAfterOrEqualTo(reserve.startedAt());
            assertThat(reserve.result()).startsWith("{\"reservation\": \"xxx")
                    .hasSize(EffectLedger.MAX_TEXT_LENGTH + 1).endsWith("x…");
            assertThat(reserve.error()).isNull();
        });
        assertThat(records.get(1)).satisfies(capture -> {
            assertThat(capture.repeatClass()).isEqualTo(RepeatClass.NEVER_REPEAT);
            assertThat(capture.status()).isEqualTo(EffectStatus.FAILED);
            assertThat(capture.idempotencyKey()).isNull();
            assertThat(capture.error()).isEqualTo("card declined");
            assertThat(capture.result()).isNull();
        });
        assertThat(records.get(2)).satisfies(receipt -> {
            assertThat(receipt.status()).as("outcome unknown: never-repeat is not called again").isEqualTo(EffectStatus.STARTED);
            assertThat(receipt.calls()).isEqualTo(1);
            assertThat(receipt.finishedAt()).isNull();
        });
    }

    @Test
    void onlySupportStaffReadTheRecords() {
        assertThatThrownBy(() -> ledger.recordsOf(operationId)).isInstanceOf(AuthenticationCredentialsNotFoundException.class);

        signedInAs("ROLE_SOMEONE_ELSE");
        assertThatThrownBy(() -> ledger.recordsOf(operationId)).isInstanceOf(AccessDeniedException.class);

        signedInAs("ROLE_ADMIN");
        assertThat(ledger.recordsOf(operationId)).isEmpty();
        assertThat(ledger.recordsOf(OperationId.random())).as("an operationId no one claimed").isEmpty();
    }

    private static void signedInAs(String authority) {
        SecurityContextHolder.getContext().setAuthentication(UsernamePasswordAuthenticationToken.authenticated(
                "someone", null, AuthorityUtils.createAuthorityList(authority)));
    }
}
