package dev.opledger.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.claim.ClaimService;
import dev.opledger.claim.LifecycleService;
import dev.opledger.effect.Effect;
import dev.opledger.effect.EffectGateway;
import dev.opledger.effect.EffectOutcome;
import dev.opledger.effect.EffectResolution;
import dev.opledger.effect.EffectReviews;
import dev.opledger.effect.FakeTools;
import dev.opledger.effect.TestGateways;
import dev.opledger.effect.UnknownEffect;
import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolRef;
import dev.opledger.operation.Fence;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.Operations;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.AuthenticationCredentialsNotFoundException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * Resolving NEEDS_REVIEW after a never-repeat call's outcome was lost, through the façade and then
 * the effect gateway of the resumed run, with tools that count their effects: landed → no second
 * call, did not land → exactly one more call (and a second loss parks it again), give up → no
 * call and the step ends FAILED. Role-checked, audited, an event, and one resolution per call
 * whatever the number of clicks or people.
 */
@NodeIntegrationTest
class ReviewServiceIT {

    private static final String NODE = "review-it-node";
    private static final ToolRef MESSAGE = new ToolRef("shop", "send_message");
    private static final String STEP = "receipt";

    @Autowired
    ReviewService reviews;

    @Autowired
    ClaimService claims;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    ApplicationContext node;

    @Autowired
    JdbcTemplate jdbc;

    FakeTools tools;
    EffectGateway gateway;
    SubjectId subject;
    OperationId operation;

    @BeforeEach
    void anOperationWhoseReceiptIsUnknown() {
        tools = new FakeTools();
        tools.hints.put(MESSAGE.tool(), new ToolHints(false, false, false, true)); // open world: never-repeat
        gateway = TestGateways.over(node, tools);
        subject = new SubjectId("review-" + UUID.randomUUID());
        operation = Operations.claim(claims, subject, 1).getFirst();
    }

    @AfterEach
    void signOut() {
        SecurityContextHolder.clearContext();
    }

    @Test
    void supportSaysTheMessageLandedAndTheResumedRunIsServedFromTheRecordWithoutASecondCall() {
        UnknownEffect unknown = parkedAfterALostAnswer();
        assertThat(tools.effectsOf(STEP)).as("the call landed, its answer was lost").isEqualTo(1);
        signedInAs("support", "ROLE_SUPPORT");

        assertThat(reviews.unknownEffect(subject, operation)).contains(unknown);
        assertThat(unknown.tool()).isEqualTo("send_message");
        assertThat(unknown.argumentDigest()).matches("[0-9a-f]{64}");
        var outcome = resolve(unknown, EffectResolution.LANDED, "  customer has the receipt in their inbox  ");

        assertThat(outcome).isInstanceOfSatisfying(ReviewOutcome.Resolved.class, resolved -> {
            assertThat(resolved.review().resolution()).isEqualTo(EffectResolution.LANDED);
            assertThat(resolved.review().actor()).isEqualTo("support");
            assertThat(resolved.review().note()).isEqualTo("customer has the receipt in their inbox");
        });
        assertThat(status()).isEqualTo("ACCEPTED");
        assertThat(record()).containsEntry("status", "SUCCEEDED").containsEntry("resolution", "LANDED");
        assertThat(lifecycle.transitions(operation).getLast()).satisfies(transition -> {
            assertThat(transition.from()).isEqualTo(OperationStatus.NEEDS_REVIEW);
            assertThat(transition.to()).isEqualTo(OperationStatus.ACCEPTED);
            assertThat(transition.nodeId()).isEqualTo("console:support");
            assertThat(transition.reason()).isEqualTo("send_message of step receipt landed, said support; the run goes"
                    + " on without calling it: customer has the receipt in their inbox");
        });
        assertThat(audit()).containsExactly(Map.of("actor", "support", "action", "RESOLVE_EFFECT_LANDED",
                "target", operation.toString(), "detail", lifecycle.transitions(operation).getLast().reason()));
        assertThat(lastEvent()).containsEntry("type", "ReviewResolved").containsEntry("status", "ACCEPTED")
                .containsEntry("tool", "send_message").containsEntry("step_key", STEP)
                .containsEntry("payload", "{\"resolution\": \"LANDED\"}");

        EffectOutcome resumed = gateway.perform(receipt(leased()));

        assertThat(resumed).isInstanceOfSatisfying(EffectOutcome.Done.class, done -> {
            assertThat(done.fromRecord()).isTrue();
            assertThat(EffectReviews.confirmedByPerson(done.result())).isTrue();
            assertThat(done.result()).containsEntry("confirmedBy", "support");
        });
        assertThat(tools.effectsOf(STEP)).as("no second message").isEqualTo(1);
    }

    @Test
    void anAdminSaysItDidNotLandAndTheStepCallsExactlyOnceMoreAndALostAnswerParksItAgain() {
        tools.unreachableNextCalls = 1;
        UnknownEffect unknown = parked();
        assertThat(tools.effectsOf(STEP)).as("the call never reached the tool").isZero();
        signedInAs("admin", "ROLE_ADMIN");

        var outcome = resolve(unknown, EffectResolution.NOT_LANDED, "no message in the provider's log");

        assertThat(outcome).isInstanceOf(ReviewOutcome.Resolved.class);
        assertThat(status()).isEqualTo("ACCEPTED");
        assertThat(jdbc.queryForMap("SELECT s.status, s.calls FROM effect_record_superseded s JOIN operation o"
                + " ON o.id = s.operation_ref WHERE o.operation_id = ?", operation.value()))
                .containsEntry("status", "STARTED").containsEntry("calls", 1);
        assertThat(audit()).extracting(row -> row.get("action")).containsExactly("RESOLVE_EFFECT_NOT_LANDED");

        // the step's one new call lands and its answer is lost again: no third call, a person again
        tools.loseNextResponses = 1;
        Fence second = leased();
        assertThat(gateway.perform(receipt(second))).isInstanceOf(EffectOutcome.NeedsReview.class);
        assertThat(gateway.perform(receipt(second))).as("a repeat of the step after the second loss")
                .isInstanceOf(EffectOutcome.NeedsReview.class);
        assertThat(tools.effectsOf(STEP)).as("exactly one more call").isEqualTo(1);
        assertThat(lifecycle.finishRun(second, NODE, OperationStatus.NEEDS_REVIEW, "unknown again")).isTrue();

        UnknownEffect again = reviews.unknownEffect(subject, operation).orElseThrow();
        assertThat(again.startedAt()).isAfter(unknown.startedAt());
        assertThat(resolve(again, EffectResolution.LANDED, "it did arrive this time"))
                .isInstanceOf(ReviewOutcome.Resolved.class);
        assertThat(gateway.perform(receipt(leased()))).isInstanceOf(EffectOutcome.Done.class);
        assertThat(tools.effectsOf(STEP)).isEqualTo(1);
    }

    @Test
    void givingUpEndsTheStepWithTheReasonAndCallsNothing() {
        UnknownEffect unknown = parkedAfterALostAnswer();
        signedInAs("support", "ROLE_SUPPORT");

        assertThat(resolve(unknown, EffectResolution.GIVEN_UP, "customer cancelled by phone"))
                .isInstanceOf(ReviewOutcome.Resolved.class);

        assertThat(status()).isEqualTo("ACCEPTED");
        assertThat(record()).containsEntry("status", "FAILED").containsEntry("resolution", "GIVEN_UP");
        EffectOutcome resumed = gateway.perform(receipt(leased()));
        assertThat(resumed).isEqualTo(new EffectOutcome.GivenUp("given up by support: customer cancelled by phone"));
        assertThat(tools.effectsOf(STEP)).isEqualTo(1);
        assertThat(audit()).extracting(row -> row.get("action")).containsExactly("GIVE_UP_OPERATION");
    }

    @Test
    void ofEightPeopleResolvingAtOnceOneResolvesAndTheOthersAreToldWhatWasDecided() throws Exception {
        UnknownEffect unknown = parkedAfterALostAnswer();
        int people = 8;
        var ready = new CountDownLatch(people);
        var go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(people);
        List<Future<ReviewOutcome>> outcomes = new ArrayList<>();
        try {
            for (int i = 0; i < people; i++) {
                String name = "person-" + i;
                String role = i % 2 == 0 ? "ROLE_SUPPORT" : "ROLE_ADMIN";
                EffectResolution resolution = EffectResolution.values()[i % EffectResolution.values().length];
                outcomes.add(pool.submit(() -> {
                    signedInAs(name, role);
                    ready.countDown();
                    go.await();
                    return resolve(unknown, resolution, "seen by " + name);
                }));
            }
            ready.await(10, TimeUnit.SECONDS);
            go.countDown();
            List<ReviewOutcome> results = new ArrayList<>();
            for (var outcome : outcomes) {
                results.add(outcome.get(30, TimeUnit.SECONDS));
            }

            var resolved = results.stream().filter(ReviewOutcome.Resolved.class::isInstance)
                    .map(ReviewOutcome.Resolved.class::cast).toList();
            assertThat(resolved).hasSize(1);
            assertThat(results).filteredOn(ReviewOutcome.AlreadyResolved.class::isInstance).hasSize(people - 1)
                    .allSatisfy(already -> assertThat(((ReviewOutcome.AlreadyResolved) already).review())
                            .isEqualTo(resolved.getFirst().review()));
        } finally {
            pool.shutdownNow();
        }
        assertThat(audit()).hasSize(1);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM outbox_event WHERE operation_id = ? AND type = 'ReviewResolved'",
                Integer.class, operation.value())).isEqualTo(1);
        assertThat(lifecycle.transitions(operation)).filteredOn(t -> t.from() == OperationStatus.NEEDS_REVIEW)
                .hasSize(1);
    }

    @Test
    void aDoubleClickIsToldItWasAlreadyResolvedAndChangesNothingMore() {
        UnknownEffect unknown = parkedAfterALostAnswer();
        signedInAs("support", "ROLE_SUPPORT");
        resolve(unknown, EffectResolution.LANDED, "in the inbox");

        var second = resolve(unknown, EffectResolution.NOT_LANDED, "clicked the other button");

        assertThat(second).isInstanceOfSatisfying(ReviewOutcome.AlreadyResolved.class, already -> {
            assertThat(already.review().resolution()).isEqualTo(EffectResolution.LANDED);
            assertThat(already.review().note()).isEqualTo("in the inbox");
        });
        assertThat(record()).containsEntry("status", "SUCCEEDED");
        assertThat(audit()).hasSize(1);
    }

    @Test
    void anonymousAndOtherRolesAreRefusedAndNothingChanges() {
        UnknownEffect unknown = parkedAfterALostAnswer();

        assertThatThrownBy(() -> resolve(unknown, EffectResolution.LANDED, "x"))
                .isInstanceOf(AuthenticationCredentialsNotFoundException.class);
        assertThatThrownBy(() -> reviews.unknownEffect(subject, operation))
                .isInstanceOf(AuthenticationCredentialsNotFoundException.class);
        signedInAs("mallory", "ROLE_SOMEONE_ELSE");
        assertThatThrownBy(() -> resolve(unknown, EffectResolution.GIVEN_UP, "x")).isInstanceOf(AccessDeniedException.class);

        assertThat(status()).isEqualTo("NEEDS_REVIEW");
        assertThat(record()).containsEntry("status", "STARTED");
        assertThat(audit()).isEmpty();
    }

    @Test
    void aResolutionOfAnOperationNotInReviewIsRefusedWithItsStatus() {
        signedInAs("support", "ROLE_SUPPORT");

        assertThat(reviews.resolve(subject, operation, STEP, Instant.now(), EffectResolution.LANDED, "x"))
                .isEqualTo(new ReviewOutcome.NotInReview(OperationStatus.ACCEPTED));
        assertThat(reviews.unknownEffect(subject, operation)).isEmpty();
        assertThat(audit()).isEmpty();
    }

    @Test
    void aCallOtherThanTheUnknownOneIsRefusedAndNamesTheUnknownOne() {
        UnknownEffect unknown = parkedAfterALostAnswer();
        signedInAs("support", "ROLE_SUPPORT");

        var outcome = reviews.resolve(subject, operation, STEP, unknown.startedAt().minusSeconds(60),
                EffectResolution.LANDED, "from an old page");

        assertThat(outcome).isEqualTo(new ReviewOutcome.NotTheUnknownEffect(unknown));
        assertThat(status()).isEqualTo("NEEDS_REVIEW");
        assertThat(audit()).isEmpty();
    }

    @Test
    void anotherSubjectsOperationIsNotFoundAndAMissingNoteIsRefused() {
        UnknownEffect unknown = parkedAfterALostAnswer();
        signedInAs("support", "ROLE_SUPPORT");

        assertThat(reviews.resolve(new SubjectId("someone-else-" + UUID.randomUUID()), operation, STEP,
                unknown.startedAt(), EffectResolution.LANDED, "not mine")).isEqualTo(new ReviewOutcome.NotFound());
        assertThat(resolve(unknown, EffectResolution.GIVEN_UP, "   ")).isInstanceOf(ReviewOutcome.InvalidNote.class);
        assertThat(resolve(unknown, EffectResolution.LANDED, "x".repeat(ReviewService.MAX_NOTE_LENGTH + 1)))
                .isInstanceOf(ReviewOutcome.InvalidNote.class);

        assertThat(status()).isEqualTo("NEEDS_REVIEW");
        assertThat(record()).containsEntry("status", "STARTED");
        assertThat(audit()).isEmpty();
    }

    /** The receipt's call landed and its answer was lost: never-repeat, so the run parks in NEEDS_REVIEW. */
    private UnknownEffect parkedAfterALostAnswer() {
        tools.loseNextResponses = 1;
        return parked();
    }

    private UnknownEffect parked() {
        Fence fence = leased();
        EffectOutcome outcome = gateway.perform(receipt(fence));
        assertThat(outcome).isInstanceOf(EffectOutcome.NeedsReview.class);
        assertThat(lifecycle.finishRun(fence, NODE, OperationStatus.NEEDS_REVIEW,
                ((EffectOutcome.NeedsReview) outcome).reason())).isTrue();
        signedInAs("reader", "ROLE_SUPPORT");
        UnknownEffect unknown = reviews.unknownEffect(subject, operation).orElseThrow();
        SecurityContextHolder.clearContext();
        return unknown;
    }

    private Fence leased() {
        return Operations.lease(lifecycle, NODE, operation).fence();
    }

    private static Effect receipt(Fence fence) {
        return new Effect(fence, STEP, MESSAGE, Map.of("to", "alice@example.com", "text", "Thank you for your order"),
                null);
    }

    private ReviewOutcome resolve(UnknownEffect unknown, EffectResolution resolution, String note) {
        return reviews.resolve(subject, operation, unknown.stepKey(), unknown.startedAt(), resolution, note);
    }

    private String status() {
        return jdbc.queryForObject("SELECT status FROM operation WHERE operation_id = ?", String.class, operation.value());
    }

    private Map<String, Object> record() {
        return jdbc.queryForMap("SELECT e.status, e.resolution FROM effect_record e JOIN operation o ON o.id = e.operation_ref"
                + " WHERE o.operation_id = ? AND e.step_key = ?", operation.value(), STEP);
    }

    private Map<String, Object> lastEvent() {
        return jdbc.queryForMap("SELECT type, status, tool, step_key, payload::text AS payload FROM outbox_event"
                + " WHERE operation_id = ? ORDER BY sequence DESC LIMIT 1", operation.value());
    }

    private List<Map<String, Object>> audit() {
        return jdbc.queryForList("SELECT actor, action, target, detail FROM console_audit WHERE target = ? ORDER BY id",
                operation.toString());
    }

    private static void signedInAs(String name, String authority) {
        SecurityContextHolder.getContext().setAuthentication(UsernamePasswordAuthenticationToken.authenticated(
                name, null, AuthorityUtils.createAuthorityList(authority)));
    }
}
