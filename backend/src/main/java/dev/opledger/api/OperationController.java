package dev.opledger.api;

import dev.opledger.operation.OperationSpans;
import dev.opledger.attest.AttemptHeaders;
import dev.opledger.claim.CancelChannel;
import dev.opledger.claim.CancelOutcome;
import dev.opledger.claim.CancelService;
import dev.opledger.claim.ClaimService;
import dev.opledger.claim.OperationState;
import dev.opledger.claim.OperationWaits;
import dev.opledger.graph.CommandCheck;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationMdc;
import dev.opledger.operation.SubjectId;
import dev.opledger.submission.Submission;
import dev.opledger.submission.SubmissionOutcome;
import dev.opledger.submission.SubmissionService;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /v1/operations} submits an operation under the caller's {@code Idempotency-Key}
 * (through {@link SubmissionService}, the sequence the MCP server shares);
 * {@code GET /v1/operations/{operationId}} reads the caller's own operation;
 * {@code POST /v1/operations/{operationId}/cancel} cancels it ({@link CancelService}). Submission
 * and read wait for the operation to settle when asked with {@code Prefer: wait=N}
 * ({@link PreferWait}, docs/protocol.md).
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

    /** How long past a wait's end the container's async timeout lies: the node answers first. */
    private static final Duration CONTAINER_GRACE = Duration.ofSeconds(10);

    private final SubmissionService submissions;
    private final ClaimService claims;
    private final CancelService cancels;
    private final OperationWaits waits;
    private final RequestBodyReader bodies;
    private final ApiProperties properties;
    private final OperationSpans spans;
    private final WaitedAnswers answers;

    OperationController(SubmissionService submissions, ClaimService claims, CancelService cancels,
            OperationWaits waits, RequestBodyReader bodies, ApiProperties properties, OperationSpans spans,
            WaitedAnswers answers) {
        this.spans = spans;
        this.answers = answers;
        this.submissions = submissions;
        this.claims = claims;
        this.cancels = cancels;
        this.waits = waits;
        this.bodies = bodies;
        this.properties = properties;
    }

    @PostMapping(path = "/v1/operations", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<?> submit(Authentication caller, HttpServletRequest request) throws IOException {
        OperationId operationId = IdempotencyKey.from(request);
        spans.tagCurrent(operationId); // the request's span: an attribute, never a metric tag
        try (var ignored = OperationMdc.put(operationId)) {
            SubmissionOutcome outcome = submissions.submit(submission(caller, request, operationId));
            return switch (outcome) {
                case SubmissionOutcome.Accepted accepted -> accepted(accepted.operation()).body(
                        OperationResponse.of(accepted.operation()));
                case SubmissionOutcome.Replayed replayed -> replayed().body(OperationResponse.of(replayed.operation()));
                default -> refused(outcome, operationId);
            };
        }
    }

    /**
     * The submission with {@code Prefer: wait=N} (RFC 7240): a new or replayed operation is
     * answered once it settled (ended, or needs a person) or after N seconds, whichever is first,
     * with its state then and {@code Preference-Applied}; the status code is still the
     * submission's (202 new, 200 replayed). A refusal is answered at once.
     */
    @PostMapping(path = "/v1/operations", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE, headers = PreferWait.PREFER)
    @Nullable ResponseEntity<?> submitWaiting(Authentication caller, HttpServletRequest request,
            HttpServletResponse response) throws IOException {
        OperationId operationId = IdempotencyKey.from(request);
        spans.tagCurrent(operationId);
        try (var ignored = OperationMdc.put(operationId)) {
            SubmissionOutcome outcome = submissions.submit(submission(caller, request, operationId));
            Optional<Duration> wait = PreferWait.from(request.getHeaders(PreferWait.PREFER), properties.maxWait());
            return switch (outcome) {
                case SubmissionOutcome.Accepted accepted -> waited(request, response, accepted.operation(), wait,
                        () -> accepted(accepted.operation()));
                case SubmissionOutcome.Replayed replayed ->
                        waited(request, response, replayed.operation(), wait, OperationController::replayed);
                default -> refused(outcome, operationId);
            };
        }
    }

    /**
     * Cancels the caller's own operation: 202 while its worker has yet to reach a step boundary,
     * 200 once it has ended (cancelled, or ended otherwise: the cancel changed nothing); the same
     * answer for every repeat. Another subject's operation is 404, as one that does not exist.
     */
    @PostMapping(path = "/v1/operations/{operationId}/cancel", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<OperationResponse> cancel(Authentication caller, @PathVariable String operationId) {
        OperationId id = parsePathId(operationId);
        spans.tagCurrent(id);
        try (var ignored = OperationMdc.put(id)) {
            return switch (cancels.cancelOwn(subject(caller), id, CancelChannel.REST)) {
                case CancelOutcome.Pending pending ->
                        ResponseEntity.accepted().body(OperationResponse.of(pending.operation(), pending.cancel()));
                case CancelOutcome.Resolved resolved ->
                        ResponseEntity.ok(OperationResponse.of(resolved.operation(), resolved.cancel()));
                case CancelOutcome.AlreadyEnded ended -> ResponseEntity.ok(OperationResponse.of(ended.operation()));
                case CancelOutcome.NotFound notFound -> throw notFound(id);
            };
        }
    }

    @GetMapping(path = "/v1/operations/{operationId}", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<OperationResponse> find(Authentication caller, @PathVariable String operationId) {
        OperationId id = parsePathId(operationId);
        spans.tagCurrent(id);
        return claims.find(subject(caller), id)
                .map(operation -> ResponseEntity.ok(OperationResponse.of(operation)))
                .orElseThrow(() -> notFound(id));
    }

    /**
     * The read with {@code Prefer: wait=N}: held until the operation settled or N seconds passed,
     * then its state and {@code Preference-Applied}. Another subject's operation is not found, at once.
     */
    @GetMapping(path = "/v1/operations/{operationId}", produces = MediaType.APPLICATION_JSON_VALUE,
            headers = PreferWait.PREFER)
    @Nullable ResponseEntity<?> findWaiting(Authentication caller, @PathVariable String operationId,
            HttpServletRequest request, HttpServletResponse response) {
        OperationId id = parsePathId(operationId);
        spans.tagCurrent(id);
        OperationState current = claims.find(subject(caller), id).orElseThrow(() -> notFound(id));
        return waited(request, response, current,
                PreferWait.from(request.getHeaders(PreferWait.PREFER), properties.maxWait()), ResponseEntity::ok);
    }

    /**
     * The answer now when there is nothing to wait for (no valid wait, the operation settled),
     * else null: the answer is written when the operation settles or the wait ends, and no thread
     * waits meanwhile ({@link WaitedAnswers}).
     */
    private @Nullable ResponseEntity<?> waited(HttpServletRequest request, HttpServletResponse response,
            OperationState current, Optional<Duration> wait, Supplier<ResponseEntity.BodyBuilder> status) {
        if (wait.isEmpty()) {
            return status.get().body(OperationResponse.of(current));
        }
        Function<OperationState, ResponseEntity<?>> answer = state -> status.get()
                .header(PreferWait.PREFERENCE_APPLIED, PreferWait.applied(wait.get()))
                .body(OperationResponse.of(state));
        CompletableFuture<OperationState> settled = waits.untilSettled(current, wait.get());
        if (settled.isDone() && !settled.isCompletedExceptionally()) {
            return answer.apply(settled.join());
        }
        // the container's own timeout only backs the node's deadline up
        answers.answerWhenSettled(request, response, settled, current, answer, wait.get().plus(CONTAINER_GRACE));
        return null;
    }

    private Submission submission(Authentication caller, HttpServletRequest request, OperationId operationId)
            throws IOException {
        return new Submission(subject(caller), operationId, bodies.read(request, operationId),
                new Submission.Proof.Device(new AttemptHeaders(request.getHeader(APP_ATTEST_KEY_ID),
                        request.getHeader(APP_ATTEST_CHALLENGE), request.getHeader(APP_ATTEST_ASSERTION))),
                new Submission.Arrival(UUID.randomUUID(), request.getHeader(HttpHeaders.USER_AGENT),
                        request.getRemoteAddr()));
    }

    private static ResponseEntity.BodyBuilder accepted(OperationState operation) {
        return ResponseEntity.accepted().location(URI.create("/v1/operations/" + operation.operationId()));
    }

    private static ResponseEntity.BodyBuilder replayed() {
        return ResponseEntity.ok().header(IDEMPOTENT_REPLAYED, "true");
    }

    /** Every outcome but Accepted and Replayed: a problem. */
    private static ResponseEntity<?> refused(SubmissionOutcome outcome, OperationId operationId) {
        return switch (outcome) {
            case SubmissionOutcome.Accepted accepted -> throw new IllegalArgumentException("accepted is not refused");
            case SubmissionOutcome.Replayed replayed -> throw new IllegalArgumentException("replayed is not refused");
            case SubmissionOutcome.KeyReused reused -> ResponseEntity.status(ProblemType.KEY_REUSE.status())
                    .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .body(ApiProblem.of(ProblemType.KEY_REUSE,
                            "operation " + operationId + " was submitted with payload hash "
                                    + reused.operation().payloadHash().hex() + "; this request's payload hash is "
                                    + reused.offeredHash().hex() + ". Use a new operationId for a new command.",
                            operationId));
            case SubmissionOutcome.OperationIdTaken taken -> ResponseEntity.status(ProblemType.KEY_REUSE.status())
                    .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .body(ApiProblem.of(ProblemType.KEY_REUSE, "operationId " + operationId
                            + " is already in use. Use a new operationId (a new random UUID) for this command.",
                            operationId));
            case SubmissionOutcome.MalformedCommand malformed ->
                    throw new ApiException(ProblemType.MALFORMED_BODY, malformed.detail(), operationId);
            case SubmissionOutcome.UnknownType unknown -> throw new ApiException(ProblemType.UNKNOWN_OPERATION_TYPE,
                    "there is no operation type \"" + unknown.type() + "\"; this node accepts "
                            + String.join(", ", unknown.knownTypes()), operationId);
            case SubmissionOutcome.InvalidArguments invalid -> throw new ApiException(ProblemType.INVALID_ARGUMENTS,
                    invalidArgumentsDetail(invalid), operationId, Map.of("errors", errors(invalid.violations())));
            case SubmissionOutcome.AttestationRefused refused ->
                    throw new AttestProblem(refused.refusal(), refused.detail(), refused.check(), operationId);
        };
    }

    private static String invalidArgumentsDetail(SubmissionOutcome.InvalidArguments invalid) {
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
