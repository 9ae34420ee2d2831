package dev.opledger.e2e;

import dev.opledger.testing.ApiClient;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Checkouts submitted through the API at a steady rate, as apps do while something is down: each
 * submission is sent again with the same operationId until a node accepts it (202, or 200 for a
 * replay), after the {@code Retry-After} of a 503 or half a second after anything else (another
 * node first, where there are several); and a reader that reads accepted operations back
 * ({@code GET}) twice a second. Every answer is counted: a 503 with {@code Retry-After} and
 * problem+json is the retryable refusal an outage may give, any other answer ≥ 500 is not, and a
 * request with no answer within the client's 30 s (or a refused connection) counts as none.
 */
final class ApiLoad implements AutoCloseable {

    private static final Duration GIVE_UP = Duration.ofMinutes(5);

    private final Supplier<List<ChildNode>> nodes;
    private final String token;
    private final String body;
    private final double perSecond;
    private final int lanes;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final List<Future<?>> running = new ArrayList<>();
    private final AtomicBoolean stopping = new AtomicBoolean();

    private final Set<String> accepted = ConcurrentHashMap.newKeySet();
    private final Map<String, Long> answers = new ConcurrentSkipListMap<>();
    private final AtomicLong retryable = new AtomicLong();
    private final AtomicLong notRetryable = new AtomicLong();
    private final AtomicLong noAnswer = new AtomicLong();
    private final AtomicLong slowestMillis = new AtomicLong();
    private final AtomicLong sentAgain = new AtomicLong();
    private final List<String> notRetryableSamples = new CopyOnWriteArrayList<>();

    ApiLoad(Supplier<List<ChildNode>> nodes, String token, String body, double perSecond, int lanes) {
        this.nodes = nodes;
        this.token = token;
        this.body = body;
        this.perSecond = perSecond;
        this.lanes = lanes;
    }

    /** Starts the submitting lanes and the reader. */
    ApiLoad start() {
        for (int lane = 0; lane < lanes; lane++) {
            int first = lane;
            running.add(threads.submit(() -> {
                long intervalNanos = (long) (1e9 * lanes / perSecond);
                long next = System.nanoTime() + (long) (ThreadLocalRandom.current().nextDouble() * intervalNanos);
                for (int index = first; !stopping.get(); index += lanes) {
                    long wait = next - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    }
                    next += intervalNanos;
                    submitUntilAccepted(index);
                }
                return null;
            }));
        }
        running.add(threads.submit(() -> {
            while (!stopping.get()) {
                Thread.sleep(500);
                List<String> known = List.copyOf(accepted);
                if (!known.isEmpty()) {
                    String operationId = known.get(ThreadLocalRandom.current().nextInt(known.size()));
                    List<ChildNode> up = nodes.get();
                    send("GET", () -> up.get(ThreadLocalRandom.current().nextInt(up.size())).api()
                            .get(token, "/v1/operations/" + operationId));
                }
            }
            return null;
        }));
        return this;
    }

    private void submitUntilAccepted(int index) throws InterruptedException {
        String operationId = UUID.randomUUID().toString();
        long started = System.nanoTime();
        for (int attempt = 0; System.nanoTime() - started < GIVE_UP.toNanos(); attempt++) {
            if (attempt > 0) {
                sentAgain.incrementAndGet();
            }
            List<ChildNode> up = nodes.get();
            ChildNode node = up.get((index + attempt) % up.size());
            HttpResponse<String> response = send("POST", () -> node.api().submit(token, operationId, body));
            if (response != null && (response.statusCode() == 202 || response.statusCode() == 200)) {
                accepted.add(operationId);
                return;
            }
            Thread.sleep(response != null && retryAfterSeconds(response) > 0
                    ? retryAfterSeconds(response) * 1000L : 500);
        }
        throw new IllegalStateException("no node accepted " + operationId + " within " + GIVE_UP);
    }

    /** Sends one request and counts its answer; null when none came. */
    private HttpResponse<String> send(String method, Supplier<HttpResponse<String>> request) {
        long started = System.nanoTime();
        HttpResponse<String> response;
        try {
            response = request.get();
        } catch (UncheckedIOException noAnswerInTime) {
            noAnswer.incrementAndGet();
            answers.merge(method + " none", 1L, Long::sum);
            return null;
        } finally {
            slowestMillis.accumulateAndGet((System.nanoTime() - started) / 1_000_000, Math::max);
        }
        int status = response.statusCode();
        answers.merge(method + " " + status, 1L, Long::sum);
        if (status >= 500) {
            boolean problem = response.headers().firstValue("Content-Type")
                    .filter(type -> type.startsWith("application/problem+json")).isPresent();
            if (status == 503 && problem && retryAfterSeconds(response) > 0) {
                retryable.incrementAndGet();
            } else {
                notRetryable.incrementAndGet();
                if (notRetryableSamples.size() < 5) {
                    notRetryableSamples.add(method + " " + status + " " + response.headers().map() + " "
                            + response.body());
                }
            }
        }
        return response;
    }

    private static int retryAfterSeconds(HttpResponse<String> response) {
        try {
            return response.headers().firstValue("Retry-After").map(Integer::parseInt).orElse(0);
        } catch (NumberFormatException notSeconds) {
            return 0;
        }
    }

    /** Stops submitting new operations; returns once every one begun is accepted. */
    void stop() throws Exception {
        stopping.set(true);
        for (Future<?> lane : running) {
            lane.get();
        }
    }

    @Override
    public void close() {
        stopping.set(true);
        threads.shutdownNow();
    }

    Set<String> accepted() {
        return Set.copyOf(accepted);
    }

    /** Answers by {@code "<method> <status>"} ({@code none}: no answer). */
    Map<String, Long> answers() {
        return new java.util.TreeMap<>(answers);
    }

    long retryable503() {
        return retryable.get();
    }

    long notRetryable5xx() {
        return notRetryable.get();
    }

    List<String> notRetryableSamples() {
        return List.copyOf(notRetryableSamples);
    }

    long noAnswer() {
        return noAnswer.get();
    }

    long slowestMillis() {
        return slowestMillis.get();
    }

    long sentAgain() {
        return sentAgain.get();
    }
}
