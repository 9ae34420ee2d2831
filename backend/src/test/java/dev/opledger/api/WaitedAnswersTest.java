package dev.opledger.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.claim.OperationState;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.PayloadHash;
import dev.opledger.operation.SubjectId;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.http.ResponseEntity;
import org.springframework.mock.web.MockAsyncContext;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The answer to a waiting request, written when its wait ends ({@link WaitedAnswers}): the state it
 * settled in, or the one it had when the container's timeout came first; a failure as the API's
 * problem; and one answer only, whatever comes second.
 */
class WaitedAnswersTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String PATH = "/v1/operations/" + UUID.randomUUID();

    private final WaitedAnswers answers = new WaitedAnswers(new EntityWriter(JSON), new ApiExceptionHandler());
    private final MockHttpServletRequest request = new MockHttpServletRequest("GET", PATH);
    private final MockHttpServletResponse response = new MockHttpServletResponse();
    private final OperationState running = state(OperationStatus.RUNNING);
    private final CompletableFuture<OperationState> settled = new CompletableFuture<>();

    WaitedAnswersTest() {
        request.setAsyncSupported(true);
    }

    private static OperationState state(OperationStatus status) {
        return new OperationState(new SubjectId("waiter"), OperationId.parse(PATH.substring(PATH.lastIndexOf('/') + 1)),
                "checkout", status, PayloadHash.sha256("{}".getBytes(StandardCharsets.UTF_8)),
                Instant.parse("2026-12-06T08:00:00Z"), Instant.parse("2026-12-06T08:00:01Z"), null);
    }

    private static final Function<OperationState, ResponseEntity<?>> ANSWER = state -> ResponseEntity.ok()
            .header(PreferWait.PREFERENCE_APPLIED, "wait=5").body(OperationResponse.of(state));

    private void startWaiting() {
        answers.answerWhenSettled(request, response, settled, running, ANSWER, Duration.ofSeconds(15));
    }

    private JsonNode body() throws IOException {
        return JSON.readTree(response.getContentAsString());
    }

    private void containerTimeout() throws IOException {
        var async = (MockAsyncContext) request.getAsyncContext();
        for (AsyncListener listener : async.getListeners()) {
            listener.onTimeout(new AsyncEvent(async));
        }
    }

    @Test
    void theSettledStateIsAnsweredWithTheHandlersStatusAndHeadersOnce() throws IOException {
        startWaiting();
        assertThat(request.isAsyncStarted()).isTrue();
        assertThat(response.isCommitted()).as("nothing is written while the wait lasts").isFalse();
        assertThat(((MockAsyncContext) request.getAsyncContext()).getTimeout()).isEqualTo(15_000);

        settled.complete(state(OperationStatus.SUCCEEDED));

        assertThat(response.getStatus()).isEqualTo(200);
        assertThat(response.getHeader("Preference-Applied")).isEqualTo("wait=5");
        assertThat(response.getContentType()).isEqualTo("application/json");
        assertThat(response.getContentLength()).isEqualTo(response.getContentAsByteArray().length);
        assertThat(body().get("status").asString()).isEqualTo("SUCCEEDED");
        assertThat(body()).isEqualTo(JSON.valueToTree(OperationResponse.of(state(OperationStatus.SUCCEEDED))));
        assertThat(request.isAsyncStarted()).as("completed").isFalse();
    }

    @Test
    void theContainersTimeoutAnswersTheStateSeenAndALaterSettleWritesNothing() throws IOException {
        startWaiting();
        containerTimeout();
        String first = response.getContentAsString();
        assertThat(body().get("status").asString()).isEqualTo("RUNNING");

        settled.complete(state(OperationStatus.SUCCEEDED));

        assertThat(response.getContentAsString()).isEqualTo(first);
    }

    @Test
    void aDatabaseOutageAtTheDeadlineIsThe503ProblemWithRetryAfter() throws IOException {
        startWaiting();

        settled.completeExceptionally(new DataAccessResourceFailureException("no connection",
                new SQLTransientConnectionException("pool: connection is not available")));

        assertThat(response.getStatus()).isEqualTo(503);
        assertThat(response.getContentType()).isEqualTo("application/problem+json");
        assertThat(response.getHeader("Retry-After")).isEqualTo(Integer.toString(DatabaseUnavailable.RETRY_AFTER_SECONDS));
        assertThat(body().get("type").asString()).isEqualTo(ProblemType.DATABASE_UNAVAILABLE.type().toString());
        assertThat(body().get("status").asInt()).isEqualTo(503);
        assertThat(body().get("instance").asString()).as("as Spring MVC sets it").isEqualTo(PATH);
    }

    @Test
    void anyOtherFailureIsTheInternalErrorProblemWithoutItsMessage() throws IOException {
        startWaiting();

        settled.completeExceptionally(new IllegalStateException("secret detail for the log"));

        assertThat(response.getStatus()).isEqualTo(500);
        assertThat(body().get("type").asString()).isEqualTo(ProblemType.INTERNAL.type().toString());
        assertThat(response.getContentAsString()).doesNotContain("secret detail");
    }

    @Test
    void anAnswerThatCannotBeBuiltIsTheInternalErrorProblem() throws IOException {
        answers.answerWhenSettled(request, response, settled, running, state -> {
            throw new IllegalStateException("a bug in the answer");
        }, Duration.ofSeconds(15));

        settled.complete(state(OperationStatus.SUCCEEDED));

        assertThat(response.getStatus()).isEqualTo(500);
        assertThat(response.getContentType()).isEqualTo("application/problem+json");
        assertThat(body().get("type").asString()).isEqualTo(ProblemType.INTERNAL.type().toString());
        assertThat(request.isAsyncStarted()).as("completed").isFalse();
    }

    @Test
    void aClientThatWentAwayIsNotAnswered() throws IOException {
        startWaiting();
        var async = (MockAsyncContext) request.getAsyncContext();
        for (AsyncListener listener : async.getListeners()) {
            listener.onError(new AsyncEvent(async, new IOException("connection reset")));
        }

        settled.complete(state(OperationStatus.SUCCEEDED));

        assertThat(response.getContentAsByteArray()).isEmpty();
    }
}
