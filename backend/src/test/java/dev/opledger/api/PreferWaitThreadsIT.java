package dev.opledger.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.claim.ClaimService;
import dev.opledger.claim.LeasedOperation;
import dev.opledger.claim.LifecycleService;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.ApiClient;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.Operations;
import dev.opledger.testing.TestTokens;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * A waiting request holds no thread: with Tomcat on 8 platform threads (virtual threads off, so a
 * blocked request would hold one of them), 200 requests wait at once and the node still answers
 * others; when the operation ends, all 200 get its end state.
 */
@NodeIntegrationTest
@TestPropertySource(properties = {"spring.threads.virtual.enabled=false", "server.tomcat.threads.max=8",
        "server.tomcat.threads.min-spare=2"})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS) // its Tomcat is not the others'
class PreferWaitThreadsIT {

    private static final int WAITERS = 200;
    private static final String NODE = "prefer-wait-threads-test";

    @LocalServerPort
    int port;

    @Autowired
    ClaimService claims;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    MeterRegistry meters;

    @Test
    void twoHundredWaitersHoldNoThreadAndAllGetTheEnd() throws Exception {
        var subject = new SubjectId("wait-many-" + UUID.randomUUID());
        String token = TestTokens.forSubject(subject.value());
        OperationId id = Operations.claim(claims, subject, 1).getFirst();
        LeasedOperation leased = Operations.lease(lifecycle, NODE, id);
        var api = ApiClient.onPort(port);
        double before = meters.get("opledger.operation.waiters").gauge().value();

        try (ExecutorService clientThreads = Executors.newFixedThreadPool(4)) {
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(clientThreads).build();
            List<CompletableFuture<HttpResponse<String>>> waiting = IntStream.range(0, WAITERS)
                    .mapToObj(i -> http.sendAsync(api.request("/v1/operations/" + id, token, Map.of("Prefer", "wait=30"))
                            .GET().build(), HttpResponse.BodyHandlers.ofString()))
                    .toList();
            await("all 200 waiting").atMost(Duration.ofSeconds(60))
                    .until(() -> meters.get("opledger.operation.waiters").gauge().value() - before >= WAITERS);

            // 8 request threads, 200 requests held: a plain read is still answered, promptly
            long started = System.nanoTime();
            HttpResponse<String> plain = api.get(token, "/v1/operations/" + id);
            assertThat(plain.statusCode()).isEqualTo(200);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isLessThan(5_000L);
            assertThat(waiting).noneMatch(CompletableFuture::isDone);

            assertThat(lifecycle.finishRun(leased.fence(), NODE, OperationStatus.SUCCEEDED, null)).isTrue();

            CompletableFuture.allOf(waiting.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            for (var answer : waiting) {
                HttpResponse<String> response = answer.join();
                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(ApiClient.json(response).get("status").asString()).isEqualTo("SUCCEEDED");
            }
        }
    }
}
