package dev.opledger.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import dev.opledger.claim.ClaimService;
import dev.opledger.claim.LifecycleService;
import dev.opledger.effect.Effect;
import dev.opledger.effect.EffectOutcome;
import dev.opledger.effect.TestGateways;
import dev.opledger.effect.UnansweredTools;
import dev.opledger.graph.internal.OperationWorker;
import dev.opledger.graph.internal.WorkerProperties;
import dev.opledger.mcp.ToolRef;
import dev.opledger.operation.Fence;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationMdc;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.Operations;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Every log line about an operation carries its operationId in the MDC (STYLE.md, "Logging"),
 * the worker's own lines after the graph run included.
 */
@NodeIntegrationTest
class OperationMdcIT {

    private static final WorkerProperties FAST = new WorkerProperties(true, 2, Duration.ofSeconds(5),
            Duration.ofMillis(500), Duration.ofMillis(50));

    @Autowired
    ClaimService claims;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    GraphService graphs;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    ApplicationContext node;

    private final Capture capture = new Capture();
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private @Nullable OperationWorker worker;

    /** A logged line as it was when logged: its text, the MDC's operationId, and the logging thread. */
    private record Line(String message, @Nullable String operationId, Thread thread) {
    }

    /** Reads the MDC on the logging thread, at append time: a later read would see the reader's. */
    private static final class Capture extends AppenderBase<ILoggingEvent> {

        final List<Line> lines = new CopyOnWriteArrayList<>();

        @Override
        protected void append(ILoggingEvent event) {
            lines.add(new Line(event.getFormattedMessage(), event.getMDCPropertyMap().get(OperationMdc.KEY),
                    Thread.currentThread()));
        }
    }

    @BeforeEach
    void listen() {
        capture.setContext(root.getLoggerContext());
        capture.start();
        root.addAppender(capture);
    }

    @AfterEach
    void stop() {
        if (worker != null) {
            worker.stop();
        }
        root.detachAppender(capture);
        capture.stop();
    }

    /** Regression: GraphRunner removed the worker's operationId, so the worker's line about the failure had none. */
    @Test
    void theWorkersLinesAfterAFailedGraphRunCarryTheOperationId() {
        var subject = new SubjectId("mdc-" + UUID.randomUUID());
        OperationId id = Operations.claim(claims, subject, 1).getFirst();
        var runThread = new AtomicReference<Thread>();
        worker = new OperationWorker("mdc-node", lifecycle, (operation, lease) -> {
            if (!operation.operationId().equals(id)) {
                return new ExecutionOutcome.Succeeded();
            }
            runThread.set(Thread.currentThread());
            // capture throws: the run fails inside GraphRunner, and the worker logs and records it
            graphs.runner(new CheckoutLikeGraph().failCapture(1).build(), GraphOptions.none()).run(id, Map.of());
            return new ExecutionOutcome.Succeeded();
        }, FAST);

        worker.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> "FAILED".equals(jdbc.queryForObject(
                "SELECT status FROM operation WHERE operation_id = ?", String.class, id.value())));

        List<Line> aboutIt = capture.lines.stream().filter(line -> line.message().contains(id.toString())).toList();
        assertThat(aboutIt).extracting(Line::message)
                .anySatisfy(message -> assertThat(message).contains("the run of operation " + id + " failed unexpectedly"));
        assertThat(aboutIt).allSatisfy(line -> assertThat(line.operationId()).as(line.message()).isEqualTo(id.toString()));
        assertThat(capture.lines).filteredOn(line -> line.thread() == runThread.get()).isNotEmpty()
                .allSatisfy(line -> assertThat(line.operationId()).as(line.message()).isEqualTo(id.toString()));
    }

    @Test
    void theEffectGatewaysLinesCarryTheOperationIdOfItsEffect() {
        var subject = new SubjectId("mdc-gateway-" + UUID.randomUUID());
        OperationId id = Operations.claim(claims, subject, 1).getFirst();
        Fence fence = lifecycle.lease("mdc-gateway-node", 1000, Duration.ofSeconds(30)).stream()
                .filter(leased -> leased.operationId().equals(id)).findFirst().orElseThrow().fence();
        var gateway = TestGateways.over(node, new UnansweredTools());
        capture.lines.clear();

        // a never-repeat tool without an answer: the gateway logs the unknown outcome and the review
        var outcome = gateway.perform(new Effect(fence, "receipt", new ToolRef("shop", "send_message"),
                Map.of("to", "ann@example.com"), null));

        assertThat(outcome).isInstanceOf(EffectOutcome.NeedsReview.class);
        assertThat(capture.lines).filteredOn(line -> line.thread() == Thread.currentThread()).isNotEmpty()
                .allSatisfy(line -> assertThat(line.operationId()).as(line.message()).isEqualTo(id.toString()));
        assertThat(MDC.get(OperationMdc.KEY)).as("left as it was before the effect").isNull();
    }
}
