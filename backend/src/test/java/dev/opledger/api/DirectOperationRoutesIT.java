package dev.opledger.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.OpledgerApplication;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.RawHttp;
import dev.opledger.testing.TestDatabaseInitializer;
import dev.opledger.testing.TestTokens;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The direct routes ({@link DirectOperationRoutes}) answer exactly as Spring MVC does. A second
 * node on the same database runs with {@code opledger.api.direct-routes=false}; every generated
 * request ({@link HostileRequests}: valid commands, replays, reads, cancels, and their hostile
 * mutations) goes to this node, then to the MVC-only one, then to this node again, and the last
 * two answers (both after the first changed what it changes) must be the same: status, headers
 * and body. Only the framing may differ: the direct routes send a body with its
 * {@code Content-Length} where MVC streams it chunked, and {@code Date} is the clock's.
 */
@NodeIntegrationTest
class DirectOperationRoutesIT {

    /** Headers that say when or how the answer was framed, not what it says. */
    private static final Set<String> FRAMING = Set.of("date", "content-length", "transfer-encoding");
    private static final Pattern PORT = Pattern.compile("localhost:\\d+");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static ConfigurableApplicationContext mvcOnly;

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    @BeforeAll
    static void startNodeWithoutDirectRoutes() {
        mvcOnly = new SpringApplicationBuilder(OpledgerApplication.class)
                .profiles("test")
                .initializers(new TestDatabaseInitializer())
                .properties("server.port=0", "spring.datasource.hikari.maximum-pool-size=3",
                        "opledger.api.direct-routes=false")
                .run();
    }

    @AfterAll
    static void stopIt() {
        mvcOnly.close();
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void everyRequestIsAnsweredAsSpringMvcAnswersIt() {
        long seed = Long.getLong("opledger.direct.seed", new SecureRandom().nextLong());
        int count = Integer.getInteger("opledger.direct.requests", 400);
        System.out.printf("DirectOperationRoutesIT: seed %d (-Dopledger.direct.seed=%d to repeat), %d requests%n",
                seed, seed, count);
        var generator = new HostileRequests(seed, "direct-" + Long.toHexString(seed), Set.of());
        var direct = new RawHttp(port);
        var mvc = new RawHttp(mvcPort());
        List<String> differences = new ArrayList<>();
        Map<String, Integer> answered = new TreeMap<>();
        for (int index = 0; index < count; index++) {
            HostileRequest hostile = generator.next(index);
            RawHttp.Response first = direct.send(hostile.request());
            if (hostile.expect() instanceof HostileRequest.Creates creates && first.status() == 202) {
                generator.accepted(creates);
            }
            RawHttp.Response byMvc = mvc.send(hostile.request());
            RawHttp.Response again = direct.send(hostile.request());
            answered.merge(String.valueOf(again.status()), 1, Integer::sum);
            String difference = difference(again, byMvc);
            if (difference != null) {
                differences.add("#" + index + " " + hostile.description() + ": " + difference);
            }
        }
        System.out.println("DirectOperationRoutesIT: answers by status " + answered);
        assertThat(differences).as("seed %d: %d of %d requests answered otherwise than by Spring MVC; the first:%n%s",
                seed, differences.size(), count, String.join("\n", differences.subList(0, Math.min(20,
                        differences.size())))).isEmpty();
        // the generated mix reaches the routes' answers: replays and reads (200) and refusals
        assertThat(answered).containsKeys("200", "404", "422");
    }

    @Test
    void theDirectRoutesAnswerAndTheObservationNamesTheRouteAsMvcWould() {
        String token = TestTokens.forSubject("direct-observed");
        UUID operationId = UUID.randomUUID();
        double submitsBefore = count("POST", DirectOperationRoutes.SUBMIT);
        double readsBefore = count("GET", DirectOperationRoutes.READ);

        var submitted = new RawHttp(port).send(new RawHttp.Request("POST", "/v1/operations")
                .header("Authorization", "Bearer " + token)
                .header("Idempotency-Key", operationId.toString())
                .header("Content-Type", "application/json")
                .body("{\"type\":\"checkout\",\"arguments\":{\"sku\":\"A-1\",\"quantity\":1,\"amount\":1.5,"
                        + "\"currency\":\"EUR\",\"recipient\":\"ann@example.com\"}}"));
        var read = new RawHttp(port).send(new RawHttp.Request("GET", "/v1/operations/" + operationId)
                .header("Authorization", "Bearer " + token));

        assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
        assertThat(read.status()).as(read.toString()).isEqualTo(200);
        // the direct routes answered them: with the body's length, where MVC streams it chunked
        assertThat(submitted.header("Content-Length")).isEqualTo(String.valueOf(submitted.body().length));
        assertThat(read.header("Content-Length")).isEqualTo(String.valueOf(read.body().length));
        var readByMvc = new RawHttp(mvcPort()).send(new RawHttp.Request("GET", "/v1/operations/" + operationId)
                .header("Authorization", "Bearer " + token));
        assertThat(readByMvc.header("Transfer-Encoding")).as(readByMvc.toString()).isEqualTo("chunked");
        // the observation stops after the answer is written: the client may have it first
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(count("POST", DirectOperationRoutes.SUBMIT)).as(meters()).isEqualTo(submitsBefore + 1);
            assertThat(count("GET", DirectOperationRoutes.READ)).as(meters()).isEqualTo(readsBefore + 1);
        });
    }

    private static int mvcPort() {
        return ((ServletWebServerApplicationContext) mvcOnly).getWebServer().getPort();
    }

    private String meters() {
        return meters.find("http.server.requests").timers().stream()
                .map(timer -> timer.getId().getTags() + " " + timer.count()).toList().toString();
    }

    private double count(String method, String uri) {
        // one timer per status and outcome
        return meters.find("http.server.requests").tag("method", method).tag("uri", uri).timers().stream()
                .mapToLong(Timer::count).sum();
    }

    /** How two answers differ, or null when they are the same but for their framing. */
    private static @Nullable String difference(RawHttp.Response direct, RawHttp.Response mvc) {
        if (direct.status() != mvc.status()) {
            return "status " + direct.status() + ", MVC " + mvc.status()
                    + " (" + direct.text() + " / " + mvc.text() + ")";
        }
        Map<String, List<String>> directHeaders = withoutFraming(direct);
        Map<String, List<String>> mvcHeaders = withoutFraming(mvc);
        if (!directHeaders.equals(mvcHeaders)) {
            return "headers " + directHeaders + ", MVC " + mvcHeaders;
        }
        if (!Arrays.equals(direct.body(), mvc.body()) && !sameJson(direct, mvc)) {
            return "body " + direct.text() + ", MVC " + mvc.text();
        }
        return null;
    }

    /**
     * Both bodies JSON with the same members and values. A problem's members come in another order
     * from the direct routes (as from {@link WaitedAnswers}): {@link ProblemResponseWriter}'s.
     */
    private static boolean sameJson(RawHttp.Response direct, RawHttp.Response mvc) {
        try {
            return JSON.readTree(direct.body()).equals(JSON.readTree(mvc.body()));
        } catch (JacksonException e) {
            return false;
        }
    }

    /**
     * The headers but the framing, with a URL's port as PORT: Spring Security's 401 names the
     * resource metadata's URL, and the two nodes listen on different ports.
     */
    private static Map<String, List<String>> withoutFraming(RawHttp.Response response) {
        Map<String, List<String>> headers = new TreeMap<>();
        response.headers().forEach((name, values) -> headers.put(name,
                values.stream().map(value -> PORT.matcher(value).replaceAll("localhost:PORT")).toList()));
        headers.keySet().removeAll(FRAMING);
        return headers;
    }
}
