package dev.opledger.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.claim.ClaimService;
import dev.opledger.claim.LeasedOperation;
import dev.opledger.claim.LifecycleService;
import dev.opledger.classification.RepeatClass;
import dev.opledger.effect.Effect;
import dev.opledger.effect.EffectGateway;
import dev.opledger.effect.EffectOutcome;
import dev.opledger.effect.EffectStatus;
import dev.opledger.effect.RecordedEffect;
import dev.opledger.effect.TestGateways;
import dev.opledger.mcp.ToolClient;
import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolRef;
import dev.opledger.mcp.ToolReply;
import dev.opledger.mcp.ToolTransportException;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.Operations;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
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

/**
 * An operation's timeline from real rows: claimed through the claim, leased and finished through
 * the lifecycle, run as a checkpointed graph whose nodes perform their effects through the gateway.
 */
@NodeIntegrationTest
// the same classes as EffectGatewayIT, so these run in its context
@TestPropertySource(properties = {
    "opledger.tools.classes.shop.reserve_inventory.repeat-class=keyed",
    "opledger.tools.classes.shop.adjust_points.repeat-class=check_then_write",
    "opledger.tools.classes.shop.adjust_points.check-tool=get_points"})
class TimelineServiceIT {

    private static final String NODE = "timeline-it-node";
    private static final Map<String, String> TOOLS = Map.of("reserve", "reserve_inventory", "capture", "capture_payment",
            "receipt", "send_message");

    @Autowired
    TimelineService timelines;

    @Autowired
    ClaimService claims;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    GraphService graphs;

    @Autowired
    ApplicationContext node;

    SubjectId subject;
    OperationId operationId;
    LeasedOperation leased;
    /** The step whose tool call gets no answer, if any. */
    String unanswered = "";

    @BeforeEach
    void claimAndLease() {
        subject = new SubjectId("timeline-" + UUID.randomUUID());
        operationId = Operations.claim(claims, subject, 1, "checkout", "{}").getFirst();
        leased = lifecycle.lease(NODE, 1000, Duration.ofSeconds(30)).stream()
                .filter(candidate -> candidate.operationId().equals(operationId)).findFirst().orElseThrow();
    }

    @AfterEach
    void signOut() {
        SecurityContextHolder.clearContext();
    }

    @Test
    void theTimelineListsAttemptsStatusChangesCheckpointsAndEffectsInTimeOrder() {
        run();
        assertThat(lifecycle.finishRun(leased.fence(), NODE, OperationStatus.SUCCEEDED, null)).isTrue();
        signedInAs("ROLE_SUPPORT");

        var timeline = timelines.timeline(subject, operationId).orElseThrow();

        assertThat(timeline.operation().operation().status()).isEqualTo(OperationStatus.SUCCEEDED);
        assertThat(timeline.entries()).isSortedAccordingTo(Comparator.comparing(TimelineEntry::at));
        assertThat(timeline.entries()).extracting(TimelineServiceIT::label).containsExactly(
                "attempt CLAIMED",
                "status null>ACCEPTED @null",
                "status ACCEPTED>RUNNING @" + NODE,
                "checkpoint __START__>reserve",
                "effect reserve reserve_inventory KEYED SUCCEEDED",
                "checkpoint reserve>capture",
                "effect capture capture_payment NEVER_REPEAT SUCCEEDED",
                "checkpoint capture>receipt",
                "effect receipt send_message NEVER_REPEAT SUCCEEDED",
                "checkpoint receipt>__END__",
                "status RUNNING>SUCCEEDED @" + NODE);
        RecordedEffect reserve = ((TimelineEntry.Effect) timeline.entries().get(4)).effect();
        assertThat(reserve.idempotencyKey()).isEqualTo(operationId + ":reserve");
        assertThat(reserve.calls()).isEqualTo(1);
        assertThat(reserve.result()).contains("reserve_inventory");
    }

    @Test
    void anOperationThatNeedsReviewSaysWhyAndShowsTheEffectOfUnknownOutcome() {
        unanswered = "receipt";
        AtomicReference<String> review = new AtomicReference<>();
        run(outcome -> {
            if (outcome instanceof EffectOutcome.NeedsReview needsReview) {
                review.set(needsReview.reason());
            }
        });
        assertThat(review.get()).as("the never-repeat receipt got no answer").isNotNull();
        assertThat(lifecycle.finishRun(leased.fence(), NODE, OperationStatus.NEEDS_REVIEW, review.get())).isTrue();
        signedInAs("ROLE_ADMIN");

        var timeline = timelines.timeline(subject, operationId).orElseThrow();

        assertThat(timeline.operation().operation().status()).isEqualTo(OperationStatus.NEEDS_REVIEW);
        assertThat(timeline.operation().statusReason()).isEqualTo(review.get()).contains("send_message");
        assertThat(timeline.entries()).filteredOn(TimelineEntry.Effect.class::isInstance)
                .map(entry -> ((TimelineEntry.Effect) entry).effect())
                .filteredOn(effect -> effect.stepKey().equals("receipt")).singleElement()
                .satisfies(receipt -> {
                    assertThat(receipt.status()).isEqualTo(EffectStatus.STARTED);
                    assertThat(receipt.repeatClass()).isEqualTo(RepeatClass.NEVER_REPEAT);
                });
        assertThat(timeline.entries().getLast()).isInstanceOfSatisfying(TimelineEntry.StatusChange.class,
                change -> assertThat(change.transition().reason()).isEqualTo(review.get()));
    }

    @Test
    void onlySupportStaffReadTimelines() {
        assertThatThrownBy(() -> timelines.timeline(subject, operationId))
                .isInstanceOf(AuthenticationCredentialsNotFoundException.class);

        signedInAs("ROLE_SOMEONE_ELSE");
        assertThatThrownBy(() -> timelines.timeline(subject, operationId)).isInstanceOf(AccessDeniedException.class);
        assertThatThrownBy(() -> timelines.timeline(operationId)).isInstanceOf(AccessDeniedException.class);
    }

    @Test
    void theOperationIdAloneFindsTheTimelineAndItsSubject() {
        run();
        signedInAs("ROLE_SUPPORT");

        var byId = timelines.timeline(operationId).orElseThrow();

        assertThat(byId.operation().operation().subject()).isEqualTo(subject);
        assertThat(byId.entries()).isEqualTo(timelines.timeline(subject, operationId).orElseThrow().entries());
        assertThat(timelines.timeline(OperationId.random())).isEmpty();
    }

    @Test
    void anotherSubjectsOperationHasNoTimeline() {
        signedInAs("ROLE_SUPPORT");

        assertThat(timelines.timeline(new SubjectId("someone-else-" + UUID.randomUUID()), operationId)).isEmpty();
    }

    private void run() {
        run(outcome -> { });
    }

    /** reserve → capture → receipt, each node performing its effect through the gateway as it starts. */
    private void run(java.util.function.Consumer<EffectOutcome> outcomes) {
        EffectGateway gateway = TestGateways.over(node, new AnsweringTools());
        var graph = new CheckoutLikeGraph().onStart(step -> outcomes.accept(gateway.perform(new Effect(leased.fence(), step, new ToolRef("shop", TOOLS.get(step)), Map.of("sku", "A-1"), null))));
        graphs.runner(graph.build(), GraphOptions.none()).run(operationId, Map.of("sku", "A-1"));
    }

    private static String label(TimelineEntry entry) {
        return switch (entry) {
            case TimelineEntry.Attempt attempt -> "attempt " + attempt.attempt().outcome();
            case TimelineEntry.StatusChange change -> "status " + change.transition().from() + ">"
                    + change.transition().to() + " @" + change.transition().nodeId();
            case TimelineEntry.Checkpoint checkpoint -> "checkpoint " + checkpoint.checkpoint().nodeId() + ">"
                    + checkpoint.checkpoint().nextNodeId();
            case TimelineEntry.Effect effect -> "effect " + effect.effect().stepKey() + " " + effect.effect().tool() + " "
                    + effect.effect().repeatClass() + " " + effect.effect().status();
            case TimelineEntry.CancelRequested cancel -> "cancel requested " + cancel.cancel().channel();
            case TimelineEntry.CancelResolved cancel -> "cancel " + cancel.cancel().resolution();
        };
    }

    private static void signedInAs(String authority) {
        SecurityContextHolder.getContext().setAuthentication(UsernamePasswordAuthenticationToken.authenticated(
                "someone", null, AuthorityUtils.createAuthorityList(authority)));
    }

    /** Answers every call with its tool's name, except the {@link #unanswered} step's, which times out. */
    private final class AnsweringTools implements ToolClient {

        @Override
        public ToolReply call(ToolRef tool, Map<String, Object> arguments) throws ToolTransportException {
            if (unanswered.equals(arguments.get("stepKey"))) {
                throw new ToolTransportException("read timed out");
            }
            return new ToolReply(false, Map.of("tool", tool.tool()), "done");
        }

        @Override
        public Optional<ToolHints> hints(ToolRef tool) {
            return Optional.empty();
        }
    }
}
