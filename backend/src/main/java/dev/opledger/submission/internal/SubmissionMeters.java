package dev.opledger.submission.internal;

import dev.opledger.submission.Submission;
import dev.opledger.submission.SubmissionOutcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.stereotype.Component;

/**
 * Counts what submissions come to, on every channel: {@code opledger.submissions{channel, outcome}}
 * and, for a refused App Attest proof, {@code opledger.attestation.refusals{refusal, check}}. Every
 * tag is one of a fixed set (a channel, an outcome kind, an {@code AttestRefusal}, a check's name),
 * never an operationId or a subject.
 */
@Component
public class SubmissionMeters {

    private final MeterRegistry registry;

    SubmissionMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    public void count(Submission.Proof proof, SubmissionOutcome outcome) {
        String channel = switch (proof) {
            case Submission.Proof.Device device -> "device";
            case Submission.Proof.Agent agent -> "agent";
        };
        Counter.builder("opledger.submissions")
                .description("Submissions by channel and what they came to")
                .tag("channel", channel)
                .tag("outcome", outcome(outcome))
                .register(registry)
                .increment();
        if (outcome instanceof SubmissionOutcome.AttestationRefused refused) {
            Counter.builder("opledger.attestation.refusals")
                    .description("Attempts whose App Attest proof was refused, by refusal and failed check")
                    .tag("refusal", refused.refusal().name())
                    .tag("check", refused.check() == null ? "none" : refused.check())
                    .register(registry)
                    .increment();
        }
    }

    private static String outcome(SubmissionOutcome outcome) {
        return switch (outcome) {
            case SubmissionOutcome.Accepted accepted -> "accepted";
            case SubmissionOutcome.Replayed replayed -> "replayed";
            case SubmissionOutcome.KeyReused reused -> "key-reuse";
            case SubmissionOutcome.OperationIdTaken taken -> "operation-id-taken";
            case SubmissionOutcome.MalformedCommand malformed -> "malformed-command";
            case SubmissionOutcome.UnknownType unknown -> "unknown-operation-type";
            case SubmissionOutcome.InvalidArguments invalid -> "invalid-arguments";
            case SubmissionOutcome.AttestationRefused refused -> "attestation-refused";
        };
    }
}
