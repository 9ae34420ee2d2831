package dev.opledger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.cli.device.DeviceVariant;
import dev.opledger.node.kafka.EmbeddedBroker;
import dev.opledger.testing.TestDatabase;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The retry storm: simulated iPhones (one {@link AttestedDevice} per lane, the attested path of
 * the local profile) submit {@code opledger.prove.storm.operations} checkouts (300 here, 10,000 with
 * {@code ./opledger prove long}), each with 1–5 attempts, every attempt with its own challenge and
 * assertion; 30 % of the attempts lose their answer (the device writes the request and closes the
 * connection, half of them at once, half once the answer starts to arrive); a fifth of the
 * operations send their attempts at once (concurrent duplicates). A device that got no answer
 * tries again until it gets one, as the app does. The node runs the checkouts against
 * reference-tools (a process of its own, whose effect log is counted) and publishes every event to
 * a broker in this JVM, whose topic is read back.
 *
 * <p>It must end with: no 5xx, every operation answered and at rest ({@code SUCCEEDED}), exactly
 * one effect per step (three per checkout) in the tool server's own log, one operation row per
 * operationId, every outbox row on the topic and no eventId twice there, and the activity feed
 * (the node's own consumer) applying each event once.
 */
@Timeout(value = 90, unit = TimeUnit.MINUTES) // the long version; the short one takes about two minutes
class RetryStormProof {

    private static final String SCENARIO = "retry-storm";
    private static final int LANES = 12;
    private static final double DROPPED = 0.30;
    private static final double CONCURRENT = 0.20;
    private static final int MAX_ATTEMPTS = 12;
    private static final List<String> ONE_EFFECT_PER_STEP = List.of(
            "capture capture_payment", "receipt send_message", "reserve reserve_inventory");

    @RegisterExtension
    final ChildNodes nodes = new ChildNodes();

    private EmbeddedBroker broker;
    private ReferenceToolsProcess tools;

    @AfterEach
    void stopTheBrokerAndTheTools() {
        if (tools != null) {
            tools.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void everyOperationEndsOnceWithOneEffectPerStepWhateverTheRetriesAndLostAnswers() throws Exception {
        int operations = Integer.getInteger("opledger.prove.storm.operations", 300);
        long seed = Long.getLong("opledger.prove.seed", System.nanoTime());
        System.out.printf("[prove] %s: %d operations, %d lanes, %.0f %% of answers dropped, seed %d "
                + "(-Dopledger.prove.seed=%d repeats the plan)%n", SCENARIO, operations, LANES, DROPPED * 100, seed, seed);
        long started = System.nanoTime();
        broker = EventNodes.startBroker();
        var database = TestDatabase.fresh();
        tools = ReferenceToolsProcess.start(database);
        List<String> arguments = new ArrayList<>(List.of(
                "--opledger.worker.concurrency=8",
                "--spring.datasource.hikari.maximum-pool-size=16",
                "--logging.level.root=WARN"));
        arguments.addAll(tools.nodeArguments());
        arguments.addAll(EventNodes.arguments(broker.bootstrapServers()));
        ChildNode node = nodes.start("prove-storm", database, arguments);

        String run = Long.toHexString(seed);
        List<AttestedDevice> devices = new ArrayList<>();
        for (int lane = 0; lane < LANES; lane++) {
            var device = new AttestedDevice(node.node(), "storm-" + run + "-" + lane, DeviceVariant.APPLE);
            assertThat(device.register().statusCode()).isEqualTo(201);
            devices.add(device);
        }

        Map<String, Integer> statuses = new ConcurrentSkipListMap<>();
        Map<String, Integer> answered = new ConcurrentHashMap<>();
        AtomicLong attempts = new AtomicLong();
        AtomicLong dropped = new AtomicLong();
        AtomicLong concurrentOperations = new AtomicLong();
        var progress = new ProofReport.Progress(SCENARIO, operations);
        long submitStarted = System.nanoTime();
        try (var lanes = Executors.newFixedThreadPool(LANES)) {
            List<Future<?>> done = new ArrayList<>();
            for (int lane = 0; lane < LANES; lane++) {
                AttestedDevice device = devices.get(lane);
                int first = lane;
                var random = new Random(seed + lane);
                done.add(lanes.submit(() -> {
                    for (int index = first; index < operations; index += LANES) {
                        String operationId = UUID.randomUUID().toString();
                        int outcome = storm(device, operationId, random, statuses, attempts, dropped,
                                concurrentOperations);
                        if (outcome > 0) {
                            answered.put(operationId, outcome);
                        }
                        progress.step(attempts.get() + " attempts, " + dropped.get() + " answers dropped, "
                                + statuses);
                    }
                    return null;
                }));
            }
            for (Future<?> lane : done) {
                lane.get();
            }
        }
        Duration submitting = Duration.ofNanos(System.nanoTime() - submitStarted);

        var outbox = new Outbox(database);
        var drain = new ProofReport.Progress(SCENARIO + " drain", operations);
        long drainStarted = System.nanoTime();
        await("every operation at rest").atMost(Duration.ofSeconds(120 + operations / 5))
                .pollInterval(Duration.ofSeconds(1)).until(() -> {
                    long atRest = outbox.operationsAtRest();
                    while (drain.done() < atRest) {
                        drain.step("at rest " + atRest + ", outbox backlog " + outbox.backlog());
                    }
                    return atRest >= outbox.operations();
                });
        await("the outbox published").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                .until(() -> outbox.backlog() == 0);
        Duration draining = Duration.ofNanos(System.nanoTime() - drainStarted);

        // what the tool server made, in its own tables
        Map<String, List<String>> effects = tools.effectsByOperation();
        List<String> repeated = tools.repeatedEffects();
        long wrongEffects = answered.keySet().stream()
                .filter(operationId -> !ONE_EFFECT_PER_STEP.equals(effects.get(operationId))).count();
        Map<String, Long> byStatus = outbox.operationsByStatus();
        long rows;
        long duplicateRows;
        Set<String> stored;
        try (Connection db = E2eDatabase.connect(database)) {
            rows = E2eQueries.count(db, "SELECT count(*) FROM operation");
            duplicateRows = E2eQueries.count(db, "SELECT count(*) FROM (SELECT operation_id FROM operation "
                    + "GROUP BY operation_id HAVING count(*) > 1) d");
            stored = E2eQueries.list(db, "SELECT operation_id::text FROM operation WHERE status = 'SUCCEEDED'")
                    .stream().map(String.class::cast).collect(Collectors.toSet());
        }
        long lost = answered.keySet().stream().filter(operationId -> !stored.contains(operationId)).count();
        long unanswered = operations - answered.size();

        // what a consumer of the topic sees
        List<Outbox.Row> outboxRows = outbox.rows();
        TopicEvents topic = TopicEvents.read(broker.bootstrapServers());
        long missingOnTopic = outboxRows.size() - outboxRows.stream().map(Outbox.Row::eventId)
                .filter(topic.copiesByEventId()::containsKey).count();
        await("the activity feed caught up").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1))
                .until(() -> topic.feedHasConsumedAll(broker.bootstrapServers()));
        List<String> feed = outbox.feedEntryEventIds();
        long feedDuplicates = feed.size() - feed.stream().distinct().count();
        long server5xx = statuses.entrySet().stream().filter(status -> status.getKey().startsWith("5"))
                .mapToLong(Map.Entry::getValue).sum();

        ProofReport.measured(SCENARIO, "operations (devices, attempts 1–5 each)", operations + " (" + LANES + ")");
        ProofReport.measured(SCENARIO, "attempts sent", attempts.get());
        ProofReport.measured(SCENARIO, "answers dropped (connection closed)", dropped.get());
        ProofReport.measured(SCENARIO, "operations sending concurrent duplicates", concurrentOperations.get());
        ProofReport.measured(SCENARIO, "answers by status", statuses.entrySet().stream()
                .map(status -> status.getKey() + "×" + status.getValue()).collect(Collectors.joining(" ")));
        ProofReport.figure(SCENARIO, "responses ≥ 500", server5xx, "0", server5xx == 0);
        ProofReport.figure(SCENARIO, "operations never answered", unanswered, "0", unanswered == 0);
        ProofReport.figure(SCENARIO, "lost: answered but not SUCCEEDED", lost, "0", lost == 0);
        ProofReport.figure(SCENARIO, "operation rows (one per operationId)", rows + " (" + duplicateRows + " twice)",
                operations + " (0 twice)", rows == operations && duplicateRows == 0);
        ProofReport.figure(SCENARIO, "duplicate effects (tool server's log)", repeated.size(), "0", repeated.isEmpty());
        ProofReport.figure(SCENARIO, "operations without exactly 3 effects", wrongEffects, "0", wrongEffects == 0);
        ProofReport.figure(SCENARIO, "events missing on the topic", missingOnTopic + " of " + outboxRows.size(), "0",
                missingOnTopic == 0);
        ProofReport.figure(SCENARIO, "duplicate events on the topic (eventId)", topic.duplicates(), "0",
                topic.duplicates() == 0);
        ProofReport.figure(SCENARIO, "events the feed applied twice", feedDuplicates, "0", feedDuplicates == 0);
        ProofReport.measured(SCENARIO, "statuses at the end", byStatus);
        ProofReport.measured(SCENARIO, "time submitting / draining / in all", ProofReport.seconds(submitting) + " / "
                + ProofReport.seconds(draining) + " / " + ProofReport.seconds(Duration.ofNanos(System.nanoTime() - started)));

        assertThat(server5xx).as("responses ≥ 500: %s", statuses).isZero();
        assertThat(unanswered).isZero();
        assertThat(lost).as("answered operations that did not succeed; statuses %s", byStatus).isZero();
        assertThat(rows).isEqualTo(operations);
        assertThat(duplicateRows).isZero();
        assertThat(repeated).as("steps with more than one effect").isEmpty();
        assertThat(wrongEffects).as("operations without exactly one effect per step").isZero();
        assertThat(missingOnTopic).isZero();
        assertThat(topic.duplicates()).as("records on the topic beyond each event's first").isZero();
        assertThat(feedDuplicates).as("feed entries applied twice").isZero();
        topic.assertEveryRowPublished(outboxRows);
    }

    /**
     * One operation from one device: 1–5 planned attempts (all at once for a fifth of them), each
     * losing its answer with probability {@link #DROPPED}; then more, one at a time, until one is
     * answered. Returns the status of the answer that arrived (202 or 200), or 0 if none did.
     */
    private static int storm(AttestedDevice device, String operationId, Random random, Map<String, Integer> statuses,
            AtomicLong attempts, AtomicLong dropped, AtomicLong concurrentOperations) throws Exception {
        String body = HostileInputProof.body(1 + random.nextInt(3), "24.90");
        int planned = 1 + random.nextInt(5);
        boolean together = planned > 1 && random.nextDouble() < CONCURRENT;
        int answer = 0;
        if (together) {
            concurrentOperations.incrementAndGet();
            List<AttestedDevice.Attempt> batch = new ArrayList<>();
            List<Boolean> drops = new ArrayList<>();
            for (int i = 0; i < planned; i++) {
                batch.add(device.attempt(operationId, body)); // challenges and assertions in order, sent at once
                drops.add(random.nextDouble() < DROPPED);
            }
            try (var sending = Executors.newVirtualThreadPerTaskExecutor()) {
                List<Future<Integer>> sent = new ArrayList<>();
                for (int i = 0; i < planned; i++) {
                    var attempt = batch.get(i);
                    boolean drop = drops.get(i);
                    boolean early = random.nextBoolean();
                    sent.add(sending.submit(() -> send(attempt, drop, early, statuses, attempts, dropped)));
                }
                for (Future<Integer> status : sent) {
                    answer = accepted(status.get()) ? status.get() : answer;
                }
            }
        } else {
            for (int i = 0; i < planned; i++) {
                int status = send(device.attempt(operationId, body), random.nextDouble() < DROPPED, random.nextBoolean(),
                        statuses, attempts, dropped);
                answer = accepted(status) ? status : answer;
            }
        }
        for (int more = planned; answer == 0 && more < MAX_ATTEMPTS; more++) {
            int status = send(device.attempt(operationId, body), false, false, statuses, attempts, dropped);
            answer = accepted(status) ? status : answer;
        }
        return answer;
    }

    private static boolean accepted(int status) {
        return status == 202 || status == 200;
    }

    /**
     * Sends one attempt; a dropped one writes the request and closes the connection, at once or
     * once the first byte of the answer arrived, and reads nothing (returns 0).
     */
    private static int send(AttestedDevice.Attempt attempt, boolean drop, boolean early, Map<String, Integer> statuses,
            AtomicLong attempts, AtomicLong dropped) throws IOException {
        attempts.incrementAndGet();
        if (!drop) {
            var response = attempt.send();
            statuses.merge(Integer.toString(response.statusCode()), 1, Integer::sum);
            return response.statusCode();
        }
        dropped.incrementAndGet();
        URI base = attempt.sender().base;
        byte[] body = attempt.body().getBytes(StandardCharsets.UTF_8);
        String head = "POST /v1/operations HTTP/1.1\r\nHost: localhost:" + base.getPort() + "\r\n"
                + "Authorization: Bearer " + attempt.sender().token + "\r\n"
                + "Idempotency-Key: " + attempt.operationId() + "\r\n"
                + "Content-Type: application/json\r\n"
                + "App-Attest-Key-Id: " + attempt.keyId() + "\r\n"
                + "App-Attest-Challenge: " + attempt.challenge() + "\r\n"
                + "App-Attest-Assertion: " + attempt.assertion() + "\r\n"
                + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n";
        try (var socket = new Socket("localhost", base.getPort())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
            if (!early) {
                socket.getInputStream().read(); // the answer has started: the request was handled; drop the rest
            }
            socket.setSoLinger(true, 0); // close with a reset, as a dying connection does
        }
        return 0;
    }
}
