package dev.opledger.claim;

import dev.opledger.operation.PayloadHash;

/**
 * What a claim attempt found: a new operation, a replay of it, a reuse of its key, or a key
 * another subject holds.
 */
public sealed interface ClaimOutcome {

    /** This attempt created the operation; it is committed with status ACCEPTED. */
    record Claimed(OperationState operation) implements ClaimOutcome {
    }

    /** The operation already existed with the same payload hash; nothing new was started. */
    record Replayed(OperationState operation) implements ClaimOutcome {
    }

    /**
     * The subject had already claimed the operationId with another payload; refused and recorded.
     *
     * @param operation the operation as stored by the first claim
     */
    record KeyReused(OperationState operation, PayloadHash offeredHash) implements ClaimOutcome {
    }

    /**
     * Another subject holds the operationId (operationIds are unique across subjects); refused,
     * and nothing was stored. Carries nothing about the other subject's operation on purpose.
     */
    record OperationIdTaken() implements ClaimOutcome {
    }
}
