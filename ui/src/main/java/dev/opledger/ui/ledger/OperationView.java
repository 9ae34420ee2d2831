package dev.opledger.ui.ledger;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.H3;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.html.Pre;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.BeforeEnterObserver;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import com.vaadin.flow.router.RouterLink;
import dev.opledger.claim.ApprovalService;
import dev.opledger.claim.CancelRecord;
import dev.opledger.claim.CancelService;
import dev.opledger.claim.OperationDetail;
import dev.opledger.effect.EffectResolution;
import dev.opledger.effect.RecordedEffect;
import dev.opledger.effect.UnknownEffect;
import dev.opledger.graph.CheckpointEntry;
import dev.opledger.graph.OperationTimeline;
import dev.opledger.graph.TimelineEntry;
import dev.opledger.graph.TimelineService;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import dev.opledger.outbox.OperationEvents;
import dev.opledger.outbox.OutboxService;
import dev.opledger.replay.DryRunOutcome;
import dev.opledger.replay.ReplayService;
import dev.opledger.replay.ReplayStartOutcome;
import dev.opledger.review.ReviewService;
import dev.opledger.ui.ActionNotification;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import dev.opledger.ui.ConsoleRoles;
import dev.opledger.ui.MainLayout;
import jakarta.annotation.security.RolesAllowed;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * One operation: its status and why, its timeline (attempts, status changes, checkpoints, effects),
 * its checkpoints with a summary of the state each holds,
 * its events with when each was published, its effect records, the canonical command its payload hash covers, every accepted attempt and
 * every refused reuse of its key. An operation awaiting approval can be approved or rejected here,
 * and one that has not ended can be cancelled (the timeline then shows the cancel's states); one
 * in NEEDS_REVIEW because a call's outcome is unknown shows that call, and can be resolved here.
 * Opened as {@code operations/<operationId>}, an id pasted from a ticket or a log line (operationIds
 * are unique across subjects), or as {@code operations/<operationId>?subject=<subject>}, which
 * shows it only if it is that subject's.
 */
@Route(value = "operations/:" + OperationView.OPERATION_ID, layout = MainLayout.class)
@PageTitle("Operation · opledger console")
@RolesAllowed({ConsoleRoles.SUPPORT, ConsoleRoles.ADMIN})
class OperationView extends VerticalLayout implements BeforeEnterObserver {

    static final String OPERATION_ID = "operationId";
    static final String SUBJECT = "subject";

    private final TimelineService timelines;
    private final OutboxService outbox;
    private final Decision decision;
    private final ReviewService reviews;
    private final Resolution resolution;
    private final ReplayService replays;
    /** The link's {@code ?subject=}, if it has one. */
    private @Nullable SubjectId subject;
    private @Nullable OperationId operationId;
    /** The subject of the operation shown, whom a decision is for. */
    private @Nullable SubjectId shownSubject;
    private boolean linkIsValid;

    OperationView(TimelineService timelines, OutboxService outbox, ApprovalService approvals, CancelService cancels,
            ReviewService reviews, ReplayService replays) {
        this.replays = replays;
        this.timelines = timelines;
        this.outbox = outbox;
        this.decision = new Decision(approvals, cancels);
        this.reviews = reviews;
        this.resolution = new Resolution(reviews);
        setId("operation-view");
    }

    @Override
    public void beforeEnter(BeforeEnterEvent event) {
        operationId = event.getRouteParameters().get(OPERATION_ID).flatMap(OperationView::operationId).orElse(null);
        List<String> subjects = event.getLocation().getQueryParameters().getParameters().getOrDefault(SUBJECT, List.of());
        subject = subject(subjects).orElse(null);
        linkIsValid = subjects.isEmpty() || subject != null;
        load();
    }

    /** Reads the operation again and shows it as it is now. */
    private void load() {
        removeAll();
        shownSubject = null;
        add(new RouterLink("← Ledger", LedgerView.class));
        OperationId id = operationId;
        if (id == null || !linkIsValid) {
            notFound("This link does not name an operation: it needs an operationId (a UUID), and at most one "
                    + "?subject=….");
            return;
        }
        SubjectId of = subject;
        if (of == null) {
            timelines.timeline(id).ifPresentOrElse(this::show, () -> notFound("There is no operation " + id + "."));
        } else {
            timelines.timeline(of, id).ifPresentOrElse(this::show,
                    () -> notFound("There is no operation " + id + " for subject " + of + "."));
        }
    }

    private void show(OperationTimeline timeline) {
        OperationDetail detail = timeline.operation();
        shownSubject = detail.operation().subject();
        var refresh = new Button("Refresh", click -> load());
        refresh.setId("refresh-operation");
        refresh.addThemeVariants(ButtonVariant.TERTIARY);
        var title = new HorizontalLayout(new H2("Operation " + detail.operation().operationId()), refresh);
        title.setAlignItems(FlexComponent.Alignment.BASELINE);

        var command = new Pre(detail.command());
        command.setId("detail-command");
        command.getStyle().set("white-space", "pre-wrap").set("word-break", "break-all");
        List<RecordedEffect> effects = timeline.entries().stream()
                .flatMap(entry -> entry instanceof TimelineEntry.Effect effect ? Stream.of(effect.effect()) : Stream.empty())
                .toList();
        add(title, new OperationStatusPanel(detail, cancelOf(timeline), this::askToDecide, this::askToCancel));
        if (detail.operation().status() == OperationStatus.NEEDS_REVIEW) {
            SubjectId of = detail.operation().subject();
            reviews.unknownEffect(of, detail.operation().operationId()).ifPresent(unknown -> add(
                    new UnknownEffectPanel(unknown, chosen -> askToResolve(of, unknown, chosen))));
        }
        add(new OperationSummary(detail),
                new H3("Timeline (" + timeline.entries().size() + ")"), new TimelineGrid(timeline.entries()));
        List<CheckpointEntry> checkpoints = timeline.entries().stream()
                .flatMap(entry -> entry instanceof TimelineEntry.Checkpoint checkpoint ? Stream.of(checkpoint.checkpoint())
                        : Stream.empty())
                .toList();
        add(new H3("Checkpoints (" + checkpoints.size() + ")"), new CheckpointsGrid(checkpoints, this::askToReplay));
        addEvents(detail.operation().operationId());
        add(new H3("Effects (" + effects.size() + ")"), new EffectsGrid(effects),
                new H3("Command (canonical JSON, as hashed)"), command,
                new H3("Attempts (" + detail.attempts().size() + ")"), new AttemptsGrid(detail.attempts()),
                new H3("Key-reuse conflicts (" + detail.conflicts().size() + ")"),
                new OperationConflictsGrid(detail.conflicts()));
    }

    /** The operation's events, read after the timeline: one the timeline shows is at most not yet published. */
    private void addEvents(OperationId id) {
        OperationEvents events = outbox.events(id)
                .orElseGet(() -> new OperationEvents(List.of(), 0, Duration.ZERO));
        long waiting = events.events().stream().filter(event -> !event.published()).count();
        add(new H3("Events (" + events.events().size() + (waiting == 0 ? "" : ", " + waiting + " not yet published")
                + ")"));
        String purged = EventText.purged(events);
        if (purged != null) {
            var note = new Paragraph(purged);
            note.setId("events-purged");
            add(note);
        }
        add(new EventsGrid(events.events()));
    }

    private void askToDecide(boolean approve) {
        SubjectId decidedSubject = shownSubject;
        OperationId decidedOperation = operationId;
        if (decidedSubject == null || decidedOperation == null) {
            return;
        }
        new DecisionDialog(approve, decidedOperation, reason -> {
            decision.decide(decidedSubject, decidedOperation, approve, reason);
            load();
        }).open();
    }

    private void askToCancel() {
        OperationId cancelled = operationId;
        if (cancelled == null) {
            return;
        }
        new DecisionDialog(DecisionDialog.cancellation(cancelled), reason -> {
            decision.cancel(cancelled, reason);
            load();
        }).open();
    }

    private void askToResolve(SubjectId of, UnknownEffect unknown, EffectResolution chosen) {
        OperationId resolvedOperation = operationId;
        if (resolvedOperation == null) {
            return;
        }
        new ResolutionDialog(chosen, unknown, note -> {
            resolution.resolve(of, resolvedOperation, unknown, chosen, note);
            load();
        }).open();
    }

    /** The dry run of a replay from {@code checkpoint}, in a dialog; a refusal is told instead. */
    private void askToReplay(CheckpointEntry checkpoint) {
        SubjectId of = shownSubject;
        OperationId replayed = operationId;
        if (of == null || replayed == null) {
            return;
        }
        switch (replays.dryRun(of, replayed, checkpoint.checkpointId())) {
            case DryRunOutcome.Planned planned -> new ReplayDialog(replays, of, replayed, planned.plan(), isAdmin(),
                    outcome -> {
                        ActionNotification.show("replay-notification", ReplayDialog.message(outcome),
                                outcome instanceof ReplayStartOutcome.Started);
                        load();
                    }).open();
            case DryRunOutcome.NotReplayable refused -> ActionNotification.show("replay-notification",
                    "No replay: " + refused.why() + ".", false);
            case DryRunOutcome.CheckpointNotFound missing -> ActionNotification.show("replay-notification",
                    "No replay: the operation has no checkpoint " + missing.checkpointId() + " (any more).", false);
            case DryRunOutcome.NotFound notFound -> ActionNotification.show("replay-notification",
                    "No replay: the operation was not found.", false);
        }
    }

    private static boolean isAdmin() {
        var who = SecurityContextHolder.getContext().getAuthentication();
        return who != null && who.getAuthorities().stream().map(GrantedAuthority::getAuthority)
                .anyMatch(("ROLE_" + ConsoleRoles.ADMIN)::equals);
    }

    /** The operation's cancel, as the timeline read it. */
    private static Optional<CancelRecord> cancelOf(OperationTimeline timeline) {
        return timeline.entries().stream()
                .flatMap(entry -> entry instanceof TimelineEntry.CancelRequested requested
                        ? Stream.of(requested.cancel()) : Stream.empty())
                .findFirst();
    }

    private void notFound(String message) {
        var text = new Paragraph(message);
        text.setId("operation-not-found");
        add(new H2("Operation not found"), text);
    }

    private static Optional<OperationId> operationId(String text) {
        try {
            return Optional.of(OperationId.parse(text));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static Optional<SubjectId> subject(List<String> values) {
        if (values.size() != 1) {
            return Optional.empty();
        }
        try {
            return Optional.of(new SubjectId(values.getFirst()));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
