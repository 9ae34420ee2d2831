package dev.opledger.submission;

import dev.opledger.attest.AttestRefusal;
import dev.opledger.claim.OperationState;
import dev.opledger.graph.CommandCheck;
import dev.opledger.operation.PayloadHash;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What became of one submission. The first four are the claim's answers; the others are refusals
 * before the claim, which stored nothing and used up no challenge (a refused assertion excepted:
 * App Attest consumed its challenge, as PROTOCOL.md says).
 */
public sealed interface SubmissionOutcome {

    /** This attempt created the operation; it is committed with status ACCEPTED. */
    record Accepted(OperationState operation) implements SubmissionOutcome {
    }

    /** The operation already existed with the same payload hash; nothing new was started. */
    record Replayed(OperationState operation) implements SubmissionOutcome {
    }

    /** The subject claimed the operationId before with another payload; refused and recorded. */
    record KeyReused(OperationState operation, PayloadHash offeredHash) implements SubmissionOutcome {
    }

    /** Another subject holds the operationId; refused, and nothing is said about its operation. */
    record OperationIdTaken() implements SubmissionOutcome {
    }

    /** The body is not a command: not I-JSON, or without a string {@code type} and an object {@code arguments}. */
    record MalformedCommand(String detail) implements SubmissionOutcome {
    }

    /** No operation type has the command's name; {@code knownTypes} are the names there are, sorted. */
    record UnknownType(String type, List<String> knownTypes) implements SubmissionOutcome {

        public UnknownType {
            knownTypes = List.copyOf(knownTypes);
        }
    }

    /** The arguments do not match the type's schema. */
    record InvalidArguments(String type, List<CommandCheck.Violation> violations) implements SubmissionOutcome {

        public InvalidArguments {
            violations = List.copyOf(violations);
        }
    }

    /** App Attest refused the attempt's proof; {@code check} names the failed check where there is one. */
    record AttestationRefused(AttestRefusal refusal, String detail, @Nullable String check)
            implements SubmissionOutcome {
    }
}
