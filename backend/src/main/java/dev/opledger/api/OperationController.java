package dev.opledger.api;

import dev.opledger.attest.AttemptAttestation;
import dev.opledger.attest.AttemptHeaders;
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
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationMdc;
import dev.opledger.operation.SubjectId;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /v1/operations} claims an operation under the caller's {@code Idempotency-Key};
 * {@code GET /v1/operations/{operationId}} reads the caller's own operation.
 */
@RestController
class OperationController {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    static final String IDEMPOTENT_REPLAYED = "Idempotent-Replayed";

    static final String APP_ATTEST_KEY_ID = "App-Attest-Key-Id";
    static final String APP_ATTEST_CHALLENGE = "App-Attest-Challenge";
    static final String APP_ATTEST_ASSERTION = "App-Attest-Assertion";

    /** How many violations the problem's detail quotes; all (up to the check's bound) are in {@code errors}. */
    private static final int VIOLATIONS_IN_DETAIL = 3;

    private final ClaimService claims;
    private final AttestService attest;
    private final OperationTypes types;
    private final RequestBodyReader bodies;

    OperationController(ClaimService claims, AttestService attest, OperationTypes types, RequestBodyReader bodies) {
        this.claims = claims;
        this.attest = attest;
        this.types = types;
        this.bodies = bodies;
    }

    @PostMapping(path = "/v1/operations", consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<?> submit(Authentication caller, HttpServletRequest request) throws IOException {
        OperationId operationId = IdempotencyKey.from(request);
        try (var ignored = OperationMdc.put(operationId)) {
            Command command = parse(bodies.read(request, operationId), operationId);
            requireKnownTypeAndValidArguments(command, operationId);
            SubjectId subject = subject(caller);
            AttemptAttestation attestation = attested(subject, operationId, command, request);
            var requestId = UUID.randomUUID();
            String userAgent = request.getHeader(HttpHeaders.USER_AGENT);
            var attempt = switch (attestation) {
                case AttemptAttestation.Asserted asserted -> new AttemptContext(requestId, userAgent,
                        request.getRemoteAddr(), asserted.keyId(), asserted.counter());
                case AttemptAttestation.Unattested unattested ->
                        AttemptContext.unattested(requestId, userAgent, request.getRemoteAddr());
            };
            ClaimOutcome outcome = claims.claim(new ClaimRequest(subject, operationId, command, attempt));
            return switch (outcome) {
                case ClaimOutcome.Claimed claimed -> ResponseEntity.accepted()
                        .location(URI.create("/v1/operations/" + operationId))
                        .body(OperationResponse.of(claimed.operation()));
                case ClaimOutcome.Replayed replayed -> ResponseEntity.ok()
                        .header(IDEMPOTENT_REPLAYED, "true")
                        .body(OperationResponse.of(replayed.operation()));
                case ClaimOutcome.KeyReused reused -> ResponseEntity.status(ProblemType.KEY_REUSE.status())
                        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                        .body(ApiProblem.of(ProblemType.KEY_REUSE,
                                "operation " + operationId + " was submitted with payload hash "
                                        + reused.operation().payloadHash().hex() + "; this request's payload hash is "
                                        + reused.offeredHash().hex() + ". Use a new operationId for a new command.",
                                operationId));
                case ClaimOutcome.OperationIdTaken taken -> ResponseEntity.status(ProblemType.KEY_REUSE.status())
                        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                        .body(ApiProblem.of(ProblemType.KEY_REUSE, "operationId " + operationId
                                + " is already in use. Use a new operationId (a new random UUID) for this command.",
                                operationId));
            };
        }
    }

    @GetMapping("/v1/operations/{operationId}")
    ResponseEntity<OperationResponse> find(Authentication caller, @PathVariable String operationId) {
        OperationId id = parsePathId(operationId);
        return claims.find(subject(caller), id)
                .map(operation -> ResponseEntity.ok(OperationResponse.of(operation)))
                .orElseThrow(() -> notFound(id));
    }

    // PROTOCOL.md's order: the payload hash comes from the received body, then the assertion that
    // binds challenge, operationId and payload hash is checked, then the claim.
    private AttemptAttestation attested(SubjectId subject, OperationId operationId, Command command,
            HttpServletRequest request) {
        try {
            return attest.verifyAttempt(subject, operationId, command.payloadHash(), new AttemptHeaders(
                    request.getHeader(APP_ATTEST_KEY_ID), request.getHeader(APP_ATTEST_CHALLENGE),
                    request.getHeader(APP_ATTEST_ASSERTION)));
        } catch (AttestRefusedException e) {
            throw new AttestProblem(e, operationId);
        }
    }

    // Before attestation and the claim: a command no type accepts uses up no challenge and stores nothing.
    private void requireKnownTypeAndValidArguments(Command command, OperationId operationId) {
        switch (types.check(command)) {
            case CommandCheck.Valid valid -> {
            }
            case CommandCheck.UnknownType unknown -> throw new ApiException(ProblemType.UNKNOWN_OPERATION_TYPE,
                    "there is no operation type \"" + unknown.type() + "\"; this node accepts "
                            + String.join(", ", unknown.knownTypes()), operationId);
            case CommandCheck.InvalidArguments invalid -> throw new ApiException(ProblemType.INVALID_ARGUMENTS,
                    invalidArgumentsDetail(invalid), operationId, Map.of("errors", errors(invalid.violations())));
        }
    }

    private static String invalidArgumentsDetail(CommandCheck.InvalidArguments invalid) {
        List<CommandCheck.Violation> violations = invalid.violations();
        String quoted = violations.stream().limit(VIOLATIONS_IN_DETAIL)
                .map(v -> v.pointer() + ": " + v.message())
                .collect(Collectors.joining("; "));
        int more = violations.size() - VIOLATIONS_IN_DETAIL;
        return "the arguments do not match the schema of operation type \"" + invalid.type() + "\": " + quoted
                + (more > 0 ? " (and " + more + " more, see errors)" : "");
    }

    private static List<Map<String, String>> errors(List<CommandCheck.Violation> violations) {
        return violations.stream().map(v -> {
            Map<String, String> error = new LinkedHashMap<>();
            error.put("pointer", v.pointer());
            error.put("message", v.message());
            return error;
        }).toList();
    }

    private static Command parse(byte[] body, OperationId operationId) {
        try {
            return Command.parse(body);
        } catch (MalformedCommandException e) {
            throw new ApiException(ProblemType.MALFORMED_BODY, e.getMessage(), operationId);
        }
    }

    private static OperationId parsePathId(String text) {
        try {
            return OperationId.parse(text);
        } catch (IllegalArgumentException e) {
            throw new ApiException(ProblemType.NOT_FOUND, "there is no operation " + text
                    + " (an operationId is a UUID in its 36-character text form)", null);
        }
    }

    private static ApiException notFound(OperationId id) {
        return new ApiException(ProblemType.NOT_FOUND, "you have no operation " + id, id);
    }

    // The subject was validated when the token was (see ApiSecurityConfiguration).
    private static SubjectId subject(Authentication caller) {
        return new SubjectId(caller.getName());
    }
}
