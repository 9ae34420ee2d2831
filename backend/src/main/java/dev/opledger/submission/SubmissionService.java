package dev.opledger.submission;

import dev.opledger.attest.AttemptAttestation;
import dev.opledger.attest.AttestRefusedException;
import dev.opledger.attest.AttestService;
import dev.opledger.claim.AttemptContext;
import dev.opledger.claim.ClaimOutcome;
import dev.opledger.claim.ClaimRequest;
import dev.opledger.claim.ClaimService;
import dev.opledger.graph.CommandCheck;
import dev.opledger.graph.OperationTypes;
import dev.opledger.operation.Command;
import dev.opledger.operation.MalformedCommandException;
import dev.opledger.submission.internal.SubmissionMeters;
import org.springframework.stereotype.Service;

/**
 * The submission sequence every channel runs: read the command, check its type and arguments,
 * verify the attempt's proof, claim. The order is PROTOCOL.md's: the payload hash comes from the
 * received bytes, the assertion binds challenge, operationId and that hash, and a command no type
 * accepts is refused before App Attest, so it uses up no challenge and stores nothing. An
 * agent's attempt ({@link Submission.Proof.Agent}, MCP) skips App Attest and is recorded as
 * channel MCP; a device's ({@link Submission.Proof.Device}, REST) is always verified.
 */
@Service
public class SubmissionService {

    private final ClaimService claims;
    private final AttestService attest;
    private final OperationTypes types;
    private final SubmissionMeters meters;

    SubmissionService(ClaimService claims, AttestService attest, OperationTypes types, SubmissionMeters meters) {
        this.claims = claims;
        this.attest = attest;
        this.types = types;
        this.meters = meters;
    }

    public SubmissionOutcome submit(Submission submission) {
        SubmissionOutcome outcome = run(submission);
        meters.count(submission.proof(), outcome);
        return outcome;
    }

    private SubmissionOutcome run(Submission submission) {
        Command command;
        try {
            command = Command.parse(submission.body());
        } catch (MalformedCommandException e) {
            return new SubmissionOutcome.MalformedCommand(e.getMessage());
        }
        switch (types.check(command)) {
            case CommandCheck.Valid valid -> {
            }
            case CommandCheck.UnknownType unknown -> {
                return new SubmissionOutcome.UnknownType(unknown.type(), unknown.knownTypes());
            }
            case CommandCheck.InvalidArguments invalid -> {
                return new SubmissionOutcome.InvalidArguments(invalid.type(), invalid.violations());
            }
        }
        var arrival = submission.arrival();
        AttemptContext attempt;
        switch (submission.proof()) {
            case Submission.Proof.Device device -> {
                AttemptAttestation attestation;
                try {
                    attestation = attest.verifyAttempt(submission.subject(), submission.operationId(),
                            command.payloadHash(), device.headers());
                } catch (AttestRefusedException e) {
                    return new SubmissionOutcome.AttestationRefused(e.refusal(), e.getMessage(), e.check());
                }
                attempt = switch (attestation) {
                    case AttemptAttestation.Asserted asserted -> new AttemptContext(arrival.requestId(),
                            arrival.userAgent(), arrival.clientAddress(), asserted.keyId(), asserted.counter());
                    case AttemptAttestation.Unattested unattested ->
                            AttemptContext.unattested(arrival.requestId(), arrival.userAgent(), arrival.clientAddress());
                };
            }
            case Submission.Proof.Agent agent ->
                    attempt = AttemptContext.agent(arrival.requestId(), arrival.userAgent(), arrival.clientAddress());
        }
        return switch (claims.claim(new ClaimRequest(submission.subject(), submission.operationId(), command, attempt))) {
            case ClaimOutcome.Claimed claimed -> new SubmissionOutcome.Accepted(claimed.operation());
            case ClaimOutcome.Replayed replayed -> new SubmissionOutcome.Replayed(replayed.operation());
            case ClaimOutcome.KeyReused reused ->
                    new SubmissionOutcome.KeyReused(reused.operation(), reused.offeredHash());
            case ClaimOutcome.OperationIdTaken taken -> new SubmissionOutcome.OperationIdTaken();
        };
    }
}
