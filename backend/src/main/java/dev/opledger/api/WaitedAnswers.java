package dev.opledger.api;

import dev.opledger.claim.OperationState;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;

/**
 * Answers a request that waits for its operation to settle ({@code Prefer: wait}) when the wait
 * ends, through the servlet's own {@link AsyncContext}: no thread waits, and the request does not
 * pass Tomcat, the filter chain and Spring MVC a second time, as the async dispatch of a
 * {@code DeferredResult} does (issue 13, docs/benchmarks.md "Prefer: wait without a second
 * dispatch"). The answer is the one Spring MVC would write for the same {@link ResponseEntity}
 * ({@link EntityWriter}); a failure is answered by
 * {@link ApiExceptionHandler#unexpected}, as Spring MVC would have. The handlers' mappings produce
 * {@code application/json} only, so every request answered here accepts it.
 */
@Component
class WaitedAnswers {

    private static final Logger log = LoggerFactory.getLogger(WaitedAnswers.class);

    private final EntityWriter entities;
    private final ApiExceptionHandler failures;

    WaitedAnswers(EntityWriter entities, ApiExceptionHandler failures) {
        this.entities = entities;
        this.failures = failures;
    }

    /**
     * Starts the request's asynchronous mode and writes {@code answer} of the settled state once
     * {@code settled} completes, or of {@code current} if the container's timeout ({@code limit})
     * comes first. The caller answers a settled operation itself: this is for one still waiting.
     */
    void answerWhenSettled(HttpServletRequest request, HttpServletResponse response,
            CompletableFuture<OperationState> settled, OperationState current,
            Function<OperationState, ResponseEntity<?>> answer, Duration limit) {
        String path = request.getRequestURI();
        // The filters' response: should the answer be written before the filter chain has returned
        // (an operation that settles at once), Spring Security's header writer still adds its
        // headers when the answer commits the response.
        AsyncContext async = request.startAsync(request, response);
        async.setTimeout(limit.toMillis());
        var answered = new AtomicBoolean();
        async.addListener(new AsyncListener() {
            @Override
            public void onTimeout(AsyncEvent event) {
                if (answered.compareAndSet(false, true)) {
                    write(async, path, response, () -> answer.apply(current));
                }
            }

            @Override
            public void onError(AsyncEvent event) {
                // the client went away or the connection broke: nothing to answer, only to end
                if (answered.compareAndSet(false, true)) {
                    async.complete();
                }
            }

            @Override
            public void onComplete(AsyncEvent event) {
                answered.set(true);
            }

            @Override
            public void onStartAsync(AsyncEvent event) {
            }
        });
        // Written on a container thread, not the one that ended the wait (a worker, a notification's
        // reader): a client that does not read must not hold it. Not started once the request ended.
        settled.whenComplete((state, failure) -> {
            if (!answered.get()) {
                async.start(() -> {
                    if (answered.compareAndSet(false, true)) {
                        write(async, path, response, () -> failure == null ? answer.apply(state)
                                : failures.unexpected(failure instanceof Exception e ? e
                                        : new IllegalStateException(failure)));
                    }
                });
            }
        });
    }

    private void write(AsyncContext async, String path, HttpServletResponse response,
            Supplier<ResponseEntity<?>> answer) {
        try {
            entities.send(answer.get(), path, response);
        } catch (IOException e) {
            // the connection broke while the answer was written: the client retries with its operationId
            log.debug("writing a waited answer failed", e);
        } catch (RuntimeException e) {
            // a bug in building the answer: the internal-error problem, as Spring MVC would answer it
            if (!response.isCommitted()) {
                response.reset();
                try {
                    entities.send(failures.unexpected(e), path, response);
                } catch (IOException | RuntimeException again) {
                    log.debug("writing the problem of a waited answer failed", again);
                }
            }
        } finally {
            async.complete();
        }
    }
}
