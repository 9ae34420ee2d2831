package dev.opledger.claim;

import dev.opledger.claim.internal.ClaimStatement;
import dev.opledger.claim.internal.OperationNotifications;
import dev.opledger.claim.internal.OperationStateQuery;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Optional;
import org.springframework.stereotype.Service;

/**
 * Claims operations: one {@code INSERT … ON CONFLICT DO NOTHING} per attempt decides whether
 * this is a new operation, a replay, or a key reuse, and records the attempt (or the conflict)
 * in the same statement. An operationId another subject holds is refused without a trace.
 */
@Service
public class ClaimService {

    private final ClaimStatement claimStatement;
    private final OperationStateQuery operations;
    private final Counter claimed;
    private final Counter replayed;
    private final Counter keyReused;
    private final Counter operationIdTaken;
    private final OperationNotifications notifications;

    ClaimService(ClaimStatement claimStatement, OperationStateQuery operations, MeterRegistry meters,
            OperationNotifications notifications) {
        this.claimStatement = claimStatement;
        this.operations = operations;
        this.notifications = notifications;
        this.claimed = outcomeCounter(meters, "claimed");
        this.replayed = outcomeCounter(meters, "replayed");
        this.keyReused = outcomeCounter(meters, "key_reused");
        this.operationIdTaken = outcomeCounter(meters, "operation_id_taken");
    }

    public ClaimOutcome claim(ClaimRequest request) {
        ClaimOutcome outcome = claimStatement.execute(request);
        switch (outcome) {
            case ClaimOutcome.Claimed c -> {
                claimed.increment();
                notifications.accepted();
            }
            case ClaimOutcome.Replayed r -> replayed.increment();
            case ClaimOutcome.KeyReused k -> keyReused.increment();
            case ClaimOutcome.OperationIdTaken t -> operationIdTaken.increment();
        }
        return outcome;
    }

    /** The subject's own operation; another subject's operation is not found. */
    public Optional<OperationState> find(SubjectId subject, OperationId operationId) {
        return operations.find(subject, operationId);
    }

    private static Counter outcomeCounter(MeterRegistry meters, String outcome) {
        return Counter.builder("opledger.claims")
                .description("Claim attempts by outcome")
                .tag("outcome", outcome)
                .register(meters);
    }
}
