package dev.opledger.claim;

import dev.opledger.operation.PayloadHash;

/** What a claim attempt found: a new operation, a replay of it, or a reuse of its key. */
public sealed interface ClaimOutcome {

    /** The operation as stored (for {@link KeyReused}: as stored by the first claim). */
    OperationState operation();

    /** This attempt created the operation; it is committed with status ACCEPTED. */
    record Claimed(OperationState operation) implements ClaimOutcome {
    }

    /** The operation already existed with the same payload hash; nothing new was started. */
    record Replayed(OperationState operation) implements ClaimOutcome {
    }

    /** The operationId was already claimed with another payload; refused and recorded. */
    record KeyReused(OperationState operation, PayloadHash offeredHash) implements ClaimOutcome {
    }
}
