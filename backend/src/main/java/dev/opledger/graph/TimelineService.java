package dev.opledger.graph;

import dev.opledger.claim.LedgerService;
import dev.opledger.claim.LifecycleService;
import dev.opledger.claim.OperationDetail;
import dev.opledger.effect.EffectLedger;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Service;

/**
 * An operation's timeline for the console. It lives in the graph stage because that is the first
 * stage on the path that sees all of it: the claim's attempts and transitions, its own checkpoints
 * and the effect records. Only SUPPORT (and ADMIN, which includes it) may read it.
 */
@Service
@PreAuthorize("hasRole('SUPPORT')")
public class TimelineService {

    private final LedgerService ledger;
    private final LifecycleService lifecycle;
    private final GraphService graphs;
    private final EffectLedger effects;

    TimelineService(LedgerService ledger, LifecycleService lifecycle, GraphService graphs, EffectLedger effects) {
        this.ledger = ledger;
        this.lifecycle = lifecycle;
        this.graphs = graphs;
        this.effects = effects;
    }

    /** The subject's operation with its timeline; empty when the subject has no such operation. */
    public Optional<OperationTimeline> timeline(SubjectId subject, OperationId operationId) {
        return ledger.operation(subject, operationId).map(this::timeline);
    }

    /** The operation with this id, whoever its subject, with its timeline; empty when there is none. */
    public Optional<OperationTimeline> timeline(OperationId operationId) {
        return ledger.operation(operationId).map(this::timeline);
    }

    private OperationTimeline timeline(OperationDetail detail) {
        List<TimelineEntry> entries = new ArrayList<>();
        detail.attempts().forEach(attempt -> entries.add(new TimelineEntry.Attempt(attempt)));
        // the operationId is unique across subjects: each stage finds the operation's rows by it alone
        OperationId operationId = detail.operation().operationId();
        lifecycle.transitions(operationId).forEach(transition -> entries.add(new TimelineEntry.StatusChange(transition)));
        // history is newest first; the thread id is the operationId
        graphs.history(operationId).reversed()
                .forEach(checkpoint -> entries.add(new TimelineEntry.Checkpoint(checkpoint)));
        effects.recordsOf(operationId).forEach(effect -> entries.add(new TimelineEntry.Effect(effect)));
        lifecycle.cancel(operationId).ifPresent(cancel -> {
            entries.add(new TimelineEntry.CancelRequested(cancel));
            if (!cancel.pending()) {
                entries.add(new TimelineEntry.CancelResolved(cancel));
            }
        });
        // a stable sort: within one instant, the order above
        entries.sort(Comparator.comparing(TimelineEntry::at));
        return new OperationTimeline(detail, entries);
    }
}
