package dev.opledger.e2e;

import static dev.opledger.testing.ApiClient.json;

import dev.opledger.attest.AttemptProof.Codec;
import dev.opledger.attest.AttestEnvironment;
import dev.opledger.attest.internal.Digests;
import dev.opledger.cli.device.DeviceVariant;
import dev.opledger.cli.device.SimulatedDevice;
import dev.opledger.node.database.LocatedDatabase;
import dev.opledger.testing.Checkout;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The clock and the counters of PROTOCOL.md, against a node started with workers off and a short
 * {@code opledger.attest.challenge-ttl}: an assertion counter that repeats, goes backwards or
 * jumps ahead (a restored or cloned key), a challenge used after its expiry, and two devices of
 * one subject racing on one operationId and on two. Each case is answered with the status and
 * problem type PROTOCOL.md's table gives, and a refusal changes none of the subject's rows
 * (operations, attempts, key-reuse conflicts, outbox events, the keys' counters) — the challenge it
 * used up is the one change PROTOCOL.md allows. Shared by {@link ClockProof} ({@code ./opledger
 * prove}, many rounds) and {@link ClockAndCountersIT} (CI, a few): every check becomes a figure, and
 * the caller fails on any that does not hold.
 */
final class ClockAndCounters {

    static final String PROBLEMS = "https://opledger.dev/problems/";
    private static final String BODY = Checkout.command(1);
    private static final String OTHER_BODY = Checkout.command(2);

    /** Where the figures go: ProofReport in the proof, a list in the IT. */
    interface Figures {
        void figure(String scenario, String figure, Object value, String expected, boolean holds);
    }

    /** What a refusal must leave as it was: the subject's rows and its keys' counters. */
    record SubjectState(long operations, long attempts, long conflicts, long outboxEvents, List<Object> signCounts) {
    }

    private final RunningNode node;
    private final LocatedDatabase database;
    private final Figures figures;
    private final Duration challengeTtl;
    private final String run = Long.toHexString(System.nanoTime());
    private final List<String> failures = new ArrayList<>();

    ClockAndCounters(RunningNode node, LocatedDatabase database, Duration challengeTtl, Figures figures) {
        this.node = node;
        this.database = database;
        this.challengeTtl = challengeTtl;
        this.figures = figures;
    }

    /** The node arguments these scenarios need: no workers (nothing but the requests writes the subject's rows). */
    static List<String> nodeArguments(Duration challengeTtl) {
        return List.of("--opledger.worker.enabled=false", "--opledger.reference-tools.embedded=false",
                "--opledger.attest.challenge-ttl=" + challengeTtl.toMillis() + "ms", "--logging.level.root=WARN");
    }

    List<String> failures() {
        return List.copyOf(failures);
    }

    // ---- counters ------------------------------------------------------------------------------

    /**
     * One key's counter: repeated and lower counters refused 401 {@code assertion-replayed} with
     * nothing changed, the device itself going on afterwards; a counter that jumps ahead accepted
     * (PROTOCOL.md: strictly greater, not one greater) and the original device, now behind, refused;
     * another key of the same subject counts on its own.
     */
    void counters(int rounds) throws SQLException {
        String scenario = "counters";
        AttestedDevice phone = device("counter", true);
        int accepted = 0;
        for (int i = 0; i < 3; i++) {
            accepted += phone.attempt(newId(), BODY).send().statusCode() == 202 ? 1 : 0;
        }
        check(scenario, "honest attempts first: 202", accepted, 3);
        int repeated = 0;
        int lower = 0;
        int changed = 0;
        int wentOn = 0;
        for (int round = 0; round < rounds; round++) {
            long stored = signCount(phone);
            // a restored backup of the key whose next assertion carries the stored counter again
            AttestedDevice repeat = cloneAt(phone, stored - 1);
            SubjectState before = state(phone.subject);
            if (isProblem(repeat.attempt(newId(), BODY).send(), 401, "assertion-replayed")) {
                repeated++;
            }
            // and one from further back: a counter below the stored one
            AttestedDevice rewound = cloneAt(phone, round % Math.max(1, stored - 1));
            if (isProblem(rewound.attempt(newId(), BODY).send(), 401, "assertion-replayed")) {
                lower++;
            }
            if (!state(phone.subject).equals(before)) {
                changed++;
            }
            wentOn += phone.attempt(newId(), BODY).send().statusCode() == 202 ? 1 : 0;
        }
        check(scenario, "repeated counter: 401 assertion-replayed", repeated, rounds);
        check(scenario, "the device itself after each: 202", wentOn, rounds);
        check(scenario, "lower counter: 401 assertion-replayed", lower, rounds);
        check(scenario, "rows or counters changed by those refusals", changed, 0);
        check(scenario, "stored counter = the device's own", signCount(phone), phone.device.counter());

        // a clone that jumps ahead is accepted, and from then on the original is behind
        long jump = phone.device.counter() + 1000;
        AttestedDevice ahead = cloneAt(phone, jump - 1);
        expectStatus(scenario, "counter 1000 ahead: accepted", ahead.attempt(newId(), BODY).send(), 202);
        check(scenario, "stored counter after the jump", signCount(phone), jump);
        SubjectState before = state(phone.subject);
        expectProblem(scenario, "the original, now behind", phone.attempt(newId(), BODY).send(), 401,
                "assertion-replayed");
        check(scenario, "rows or counters changed by that refusal", state(phone.subject).equals(before) ? 0 : 1, 0);

        // counters are per key: a second device of the same subject starts at 1
        AttestedDevice second = new AttestedDevice(node, phone.subject, DeviceVariant.APPLE);
        expectStatus(scenario, "second key registered", second.register(), 201);
        expectStatus(scenario, "second key, counter 1, beside a stored " + jump, second.attempt(newId(), BODY).send(), 202);
        check(scenario, "second key's stored counter", signCount(second), 1L);
    }

    // ---- the challenge's clock -----------------------------------------------------------------

    /**
     * Challenges used before and after their expiry, by the node's clock: {@code n} attempts
     * signed over challenges fetched together, one used at once (202), the others after their
     * {@code expiresAt} has passed (401 {@code challenge-invalid}, nothing changed, the key's
     * counter not advanced), and again (still 401: the expired challenge is used up, and its
     * assertion's counter is below the stored one by then); a registration over an expired
     * challenge stores no key.
     */
    void challengeExpiry(int n) throws Exception {
        String scenario = "challenge-expiry";
        AttestedDevice phone = device("expiry", true);
        List<AttestedDevice.Attempt> late = new ArrayList<>();
        Instant latest = Instant.EPOCH;
        long lifetimeMs = -1;
        for (int i = 0; i < n; i++) {
            Issued issued = issue(phone);
            late.add(phone.attemptOver(issued.challenge(), newId(), BODY));
            latest = issued.expiresAt().isAfter(latest) ? issued.expiresAt() : latest;
            lifetimeMs = Duration.between(Instant.now(), issued.expiresAt()).toMillis();
        }
        boolean lifetimeAsConfigured = lifetimeMs > 0 && lifetimeMs <= challengeTtl.toMillis();
        check(scenario, "challenge lifetime ≤ challenge-ttl (ms left at issue)", lifetimeAsConfigured
                ? "yes (" + lifetimeMs + " ms)" : "no (" + lifetimeMs + " ms)", "yes", lifetimeAsConfigured);
        expectStatus(scenario, "a challenge used at once", phone.attempt(newId(), BODY).send(), 202);
        Issued forRegistration = issue(device("expiry-reg", false));

        // past the latest expiresAt, with a second for the two clocks (node, PostgreSQL) on this machine
        Thread.sleep(Math.max(0, Duration.between(Instant.now(), latest).toMillis()) + 1_000);
        SubjectState before = state(phone.subject);
        long counterBefore = signCount(phone);
        int refused = 0;
        int againReplayed = 0;
        int againInvalid = 0;
        for (AttestedDevice.Attempt attempt : late) {
            if (isProblem(attempt.send(), 401, "challenge-invalid")) {
                refused++;
            }
            // now the challenge is used, and the assertion's counter is below the stored one (the
            // device asserted again since): PROTOCOL.md's row "counter not increasing, challenge
            // used/expired" allows either type; the node names the counter
            var again = attempt.send();
            againReplayed += isProblem(again, 401, "assertion-replayed") ? 1 : 0;
            againInvalid += isProblem(again, 401, "challenge-invalid") ? 1 : 0;
        }
        check(scenario, "used after expiresAt: 401 challenge-invalid", refused, n);
        check(scenario, "sent again: 401 assertion-replayed or challenge-invalid", againReplayed + againInvalid, n);
        figures.figure(scenario, "of which assertion-replayed", againReplayed, "—", true);
        check(scenario, "rows changed by those refusals", state(phone.subject).equals(before) ? 0 : 1, 0);
        check(scenario, "key counter advanced by those refusals", signCount(phone) - counterBefore, 0L);
        check(scenario, "their challenges used up", usedChallenges(late), (long) n);
        expectStatus(scenario, "a fresh challenge afterwards", phone.attempt(newId(), BODY).send(), 202);

        AttestedDevice newcomer = forRegistration.device();
        expectProblem(scenario, "registration over an expired challenge", newcomer.register(forRegistration.challenge()),
                401, "challenge-invalid");
        check(scenario, "keys stored by it", keys(newcomer.subject), 0L);
    }

    // ---- two devices, one subject --------------------------------------------------------------

    /**
     * Two devices of one subject sending at the same instant, {@code rounds} times each: one
     * operationId with one body (one 202, one 200 {@code Idempotent-Replayed}, one operation, two
     * attempts), one operationId with two bodies (one 202, one 422 {@code key-reuse}, one
     * operation, one conflict), and two operationIds (two 202s). Every verified assertion advances
     * its own key's counter, the 422's too (docs/protocol.md).
     */
    void twoDevices(int rounds) throws Exception {
        String scenario = "two-devices";
        AttestedDevice first = device("pair", true);
        AttestedDevice second = new AttestedDevice(node, first.subject, DeviceVariant.APPLE);
        expectStatus(scenario, "second device registered", second.register(), 201);

        int replayed = 0;
        int reused = 0;
        int both = 0;
        int wrongRows = 0;
        for (int round = 0; round < rounds; round++) {
            String operationId = newId();
            long operations = state(first.subject).operations();
            var answers = race(first.attempt(operationId, BODY), second.attempt(operationId, BODY));
            if (oneEach(answers, 202, 200) && answers.stream().filter(a -> a.statusCode() == 200)
                    .allMatch(a -> a.headers().firstValue("Idempotent-Replayed").orElse("").equals("true"))) {
                replayed++;
            }
            if (state(first.subject).operations() != operations + 1 || attempts(operationId) != 2) {
                wrongRows++;
            }

            String contested = newId();
            long conflicts = state(first.subject).conflicts();
            answers = race(first.attempt(contested, BODY), second.attempt(contested, OTHER_BODY));
            if (oneEach(answers, 202, 422) && answers.stream().filter(a -> a.statusCode() == 422)
                    .allMatch(a -> isProblem(a, 422, "key-reuse"))) {
                reused++;
            }
            if (operations(contested) != 1 || state(first.subject).conflicts() != conflicts + 1) {
                wrongRows++;
            }

            String mine = newId();
            String yours = newId();
            answers = race(first.attempt(mine, BODY), second.attempt(yours, BODY));
            if (answers.stream().allMatch(a -> a.statusCode() == 202)) {
                both++;
            }
            if (operations(mine) != 1 || operations(yours) != 1) {
                wrongRows++;
            }
        }
        check(scenario, "same operationId, same body: one 202, one 200 replayed", replayed, rounds);
        check(scenario, "same operationId, other body: one 202, one 422 key-reuse", reused, rounds);
        check(scenario, "two operationIds: two 202s", both, rounds);
        check(scenario, "rounds with other rows than those", wrongRows, 0);
        check(scenario, "first key's stored counter = its assertions", signCount(first), first.device.counter());
        check(scenario, "second key's stored counter = its assertions", signCount(second), second.device.counter());
        check(scenario, "operations of the subject", state(first.subject).operations(), 4L * rounds);
    }

    /**
     * One device sending two attempts at once (assertions n+1 and n+2): the later counter may
     * land first, and then the earlier is below it — 401 {@code assertion-replayed}, as for any
     * counter not greater than the stored one. The app's retry (a new challenge, a new assertion,
     * the same operationId) then converges: every operation exists once.
     */
    void oneDeviceRacingItself(int rounds) throws Exception {
        String scenario = "one-device-race";
        AttestedDevice phone = device("self", true);
        int overtaken = 0;
        int unexpected = 0;
        int converged = 0;
        for (int round = 0; round < rounds; round++) {
            var earlier = phone.attempt(newId(), BODY);
            var later = phone.attempt(newId(), BODY);
            var answers = race(earlier, later);
            for (int i = 0; i < 2; i++) {
                var answer = answers.get(i);
                if (answer.statusCode() == 202) {
                    continue;
                }
                if (isProblem(answer, 401, "assertion-replayed")) {
                    overtaken++;
                    var retried = phone.attempt(i == 0 ? earlier.operationId() : later.operationId(), BODY).send();
                    if (retried.statusCode() != 202) {
                        unexpected++;
                    }
                } else {
                    unexpected++;
                }
            }
            if (operations(earlier.operationId()) == 1 && operations(later.operationId()) == 1) {
                converged++;
            }
        }
        figures.figure(scenario, "later counter landed first (401 assertion-replayed)", overtaken, "—", true);
        check(scenario, "answers other than 202 / 401 assertion-replayed / retry 202", unexpected, 0);
        check(scenario, "rounds where both operations exist once", converged, rounds);
        check(scenario, "stored counter = the device's own", signCount(phone), phone.device.counter());
    }

    // ---- helpers -------------------------------------------------------------------------------

    private record Issued(AttestedDevice device, byte[] challenge, Instant expiresAt) {
    }

    private Issued issue(AttestedDevice device) {
        var response = device.api.send(device.api.request("/v1/attest/challenges", device.token, Map.of())
                .POST(HttpRequest.BodyPublishers.noBody()).build());
        if (response.statusCode() != 201) {
            throw new IllegalStateException("no challenge: " + response.statusCode() + " " + response.body());
        }
        var body = json(response);
        return new Issued(device, Codec.base64Url(body.get("challenge").asString(), "challenge"),
                Instant.parse(body.get("expiresAt").asString()));
    }

    /** A device of a new subject, its key registered or not. */
    private AttestedDevice device(String name, boolean registered) {
        var device = new AttestedDevice(node, "clock-" + name + "-" + run, DeviceVariant.APPLE);
        if (registered) {
            var answer = device.register();
            if (answer.statusCode() != 201) {
                throw new IllegalStateException("registration: " + answer.statusCode() + " " + answer.body());
            }
        }
        return device;
    }

    /** The same key, restored as a backup would be: its next assertion carries {@code counter + 1}. */
    private AttestedDevice cloneAt(AttestedDevice original, long counter) {
        return new AttestedDevice(node, original.subject, SimulatedDevice.restore(original.device.privateKey(),
                original.device.publicKey(), AttestedDevice.APP, AttestEnvironment.DEVELOPMENT, DeviceVariant.APPLE,
                Clock.systemUTC(), counter));
    }

    /** Sends the attempts at the same instant (a latch), answers in their order. */
    private static List<HttpResponse<String>> race(AttestedDevice.Attempt... attempts) throws Exception {
        var start = new CountDownLatch(1);
        List<Future<HttpResponse<String>>> sent = new ArrayList<>();
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (var attempt : attempts) {
                sent.add(threads.submit(() -> {
                    start.await();
                    return attempt.send();
                }));
            }
            start.countDown();
            List<HttpResponse<String>> answers = new ArrayList<>();
            for (var answer : sent) {
                answers.add(answer.get());
            }
            return answers;
        }
    }

    private static boolean oneEach(List<HttpResponse<String>> answers, int a, int b) {
        return answers.size() == 2 && answers.stream().filter(r -> r.statusCode() == a).count() == 1
                && answers.stream().filter(r -> r.statusCode() == b).count() == 1;
    }

    /** Status, RFC 9457 media type and problem type, as PROTOCOL.md's table gives them. */
    static boolean isProblem(HttpResponse<String> response, int status, String type) {
        if (response.statusCode() != status
                || !response.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json")) {
            return false;
        }
        var body = json(response);
        return body.has("type") && (PROBLEMS + type).equals(body.get("type").asString())
                && body.has("status") && body.get("status").asInt() == status;
    }

    private void expectProblem(String scenario, String figure, HttpResponse<String> response, int status, String type) {
        boolean holds = isProblem(response, status, type);
        String value = response.statusCode() + (response.statusCode() >= 400 ? " " + problemType(response) : "");
        record(scenario, figure, value, status + " " + type, holds, response.body());
    }

    private void expectStatus(String scenario, String figure, HttpResponse<String> response, int status) {
        record(scenario, figure, response.statusCode(), String.valueOf(status), response.statusCode() == status,
                response.body());
    }

    private void check(String scenario, String figure, Object value, Object expected) {
        check(scenario, figure, value, String.valueOf(expected),
                Objects.equals(String.valueOf(value), String.valueOf(expected)));
    }

    private void check(String scenario, String figure, Object value, String expected, boolean holds) {
        record(scenario, figure, value, expected, holds, "");
    }

    private void record(String scenario, String figure, Object value, String expected, boolean holds, String detail) {
        figures.figure(scenario, figure, value, expected, holds);
        if (!holds) {
            failures.add(scenario + ": " + figure + " = " + value + ", must be " + expected
                    + (detail.isEmpty() ? "" : " (" + detail + ")"));
        }
    }

    private static String problemType(HttpResponse<String> response) {
        try {
            String type = json(response).get("type").asString();
            return type.startsWith(PROBLEMS) ? type.substring(PROBLEMS.length()) : type;
        } catch (RuntimeException e) {
            return "(no problem body)";
        }
    }

    private static String newId() {
        return UUID.randomUUID().toString();
    }

    SubjectState state(String subject) throws SQLException {
        try (Connection db = E2eDatabase.connect(database)) {
            return new SubjectState(
                    E2eQueries.count(db, "SELECT count(*) FROM operation WHERE subject_id = ?", subject),
                    E2eQueries.count(db, "SELECT count(*) FROM operation_attempt a JOIN operation o ON o.id = a.operation_ref"
                            + " WHERE o.subject_id = ?", subject),
                    E2eQueries.count(db, "SELECT count(*) FROM key_reuse_conflict c JOIN operation o ON o.id = c.operation_ref"
                            + " WHERE o.subject_id = ?", subject),
                    E2eQueries.count(db, "SELECT count(*) FROM outbox_event WHERE subject_id = ?", subject),
                    E2eQueries.list(db, "SELECT sign_count FROM attest_key WHERE subject_id = ? ORDER BY key_id", subject));
        }
    }

    private long signCount(AttestedDevice device) throws SQLException {
        try (Connection db = E2eDatabase.connect(database)) {
            return E2eQueries.count(db, "SELECT sign_count FROM attest_key WHERE key_id = ?", device.device.keyId());
        }
    }

    private long keys(String subject) throws SQLException {
        try (Connection db = E2eDatabase.connect(database)) {
            return E2eQueries.count(db, "SELECT count(*) FROM attest_key WHERE subject_id = ?", subject);
        }
    }

    private long operations(String operationId) throws SQLException {
        try (Connection db = E2eDatabase.connect(database)) {
            return E2eQueries.count(db, "SELECT count(*) FROM operation WHERE operation_id = ?::uuid", operationId);
        }
    }

    private long attempts(String operationId) throws SQLException {
        try (Connection db = E2eDatabase.connect(database)) {
            return E2eQueries.count(db, "SELECT count(*) FROM operation_attempt a JOIN operation o ON o.id = a.operation_ref"
                    + " WHERE o.operation_id = ?::uuid", operationId);
        }
    }

    private long usedChallenges(List<AttestedDevice.Attempt> attempts) throws SQLException {
        long used = 0;
        try (Connection db = E2eDatabase.connect(database)) {
            for (var attempt : attempts) {
                used += E2eQueries.count(db, "SELECT count(*) FROM attest_challenge WHERE challenge_hash = ? "
                        + "AND consumed_at IS NOT NULL", Digests.sha256(
                                Codec.base64Url(attempt.challenge(), "challenge")));
            }
        }
        return used;
    }
}
