package dev.opledger.e2e;

import static dev.opledger.testing.ApiClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.attest.AppId;
import dev.opledger.attest.AttestEnvironment;
import dev.opledger.attest.internal.Digests;
import dev.opledger.cli.device.DeviceVariant;
import dev.opledger.cli.device.SimulatedDevice;
import dev.opledger.testing.Checkout;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The attested path end to end: the executable jar in the local profile (App Attest required,
 * the CLI's development root trusted) and the CLI's simulated device. A legitimate retry converges
 * on its operation; every attack of the table is refused with its problem type and changes
 * nothing but the challenge it used.
 */
@ExtendWith(NodeExtension.class)
class AttestedPathIT {

    private static final String BODY = Checkout.command(2);

    RunningNode node;
    AttestedDevice alice;

    @BeforeEach
    void registerAlice(RunningNode node) {
        this.node = node;
        alice = new AttestedDevice(node, "alice-" + UUID.randomUUID(), DeviceVariant.APPLE);
        assertThat(alice.register().statusCode()).isEqualTo(201);
    }

    @Test
    void aLegitimateRetryConvergesOnTheOperationAndAdvancesTheCounter() throws SQLException {
        String operationId = UUID.randomUUID().toString();

        var first = alice.attempt(operationId, BODY).send();
        var retry = alice.attempt(operationId, BODY).send();

        assertThat(first.statusCode()).isEqualTo(202);
        assertThat(retry.statusCode()).isEqualTo(200);
        assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(json(retry).get("payloadHash")).isEqualTo(json(first).get("payloadHash"));
        try (Connection db = E2eDatabase.connect()) {
            assertThat(signCount(db, alice)).isEqualTo(2);
            assertThat(E2eQueries.list(db, "SELECT a.assertion_counter FROM operation_attempt a JOIN operation o "
                    + "ON o.id = a.operation_ref WHERE o.subject_id = ? ORDER BY a.id", alice.subject)).containsExactly(1L, 2L);
            assertThat(E2eQueries.list(db, "SELECT attested FROM operation WHERE subject_id = ?", alice.subject))
                    .containsExactly(true);
        }
    }

    @Test
    void acceptsAnIos27DeviceWithExtensionDataAfterTheKey() {
        var ios27 = new AttestedDevice(node, "ios27-" + UUID.randomUUID(), DeviceVariant.APPLE.withIos27());

        assertThat(ios27.register().statusCode()).isEqualTo(201);
        assertThat(ios27.attempt(UUID.randomUUID().toString(), BODY).send().statusCode()).isEqualTo(202);
    }

    @Test
    void aRegistrationRetriedAfterALostResponseGetsTheSameKey() {
        var device = new AttestedDevice(node, "retrying-" + UUID.randomUUID(), DeviceVariant.APPLE);
        byte[] challenge = device.challenge();
        byte[] attestation = device.device.attestation(dev.opledger.attest.ClientData.hashOfRegistration(challenge));

        var first = device.registerWith(attestation, challenge);
        var again = device.registerWith(attestation, challenge);

        assertThat(first.statusCode()).isEqualTo(201);
        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(json(again).get("keyId")).isEqualTo(json(first).get("keyId"));
    }

    @Test
    void theSameAssertionSentThirtyTwoTimesAtOnceIsAcceptedOnce() throws Exception {
        var attempt = alice.attempt(UUID.randomUUID().toString(), BODY);
        var start = new CountDownLatch(1);
        List<Future<HttpResponse<String>>> sent = new ArrayList<>();
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 32; i++) {
                sent.add(threads.submit(() -> {
                    start.await();
                    return attempt.send();
                }));
            }
            start.countDown();
            List<Integer> statuses = new ArrayList<>();
            for (var response : sent) {
                statuses.add(response.get().statusCode());
            }
            assertThat(statuses).containsOnlyOnce(202).containsOnly(202, 401);
        }
        try (Connection db = E2eDatabase.connect()) {
            assertThat(signCount(db, alice)).isEqualTo(1);
            assertThat(attemptCount(db, alice)).isEqualTo(1);
        }
    }

    // ---- the attack table: each refused with its type, nothing changed ------------------------

    @Test
    void aReplayedAssertionIsRefused() throws SQLException {
        var attempt = alice.attempt(UUID.randomUUID().toString(), BODY);
        assertThat(attempt.send().statusCode()).isEqualTo(202);

        assertRefused(attempt::send, "assertion-replayed");
    }

    @Test
    void anAssertionWithALowerCounterIsRefused() throws SQLException {
        alice.attempt(UUID.randomUUID().toString(), BODY).send();
        alice.attempt(UUID.randomUUID().toString(), BODY).send(); // stored counter: 2
        var rewound = new AttestedDevice(node, alice.subject, SimulatedDevice.restore(alice.device.privateKey(),
                alice.device.publicKey(), AttestedDevice.APP, AttestEnvironment.DEVELOPMENT, DeviceVariant.APPLE,
                Clock.systemUTC(), 0)); // its next assertion carries counter 1

        assertRefused(() -> rewound.attempt(UUID.randomUUID().toString(), BODY).send(), "assertion-replayed");
    }

    @Test
    void anAlteredBodyIsRefused() throws SQLException {
        var attempt = alice.attempt(UUID.randomUUID().toString(), BODY);

        assertRefused(() -> attempt.withBody(Checkout.command(20)).send(),
                "assertion-invalid");
    }

    @Test
    void theSameAssertionForAnotherOperationIdIsRefused() throws SQLException {
        var attempt = alice.attempt(UUID.randomUUID().toString(), BODY);

        assertRefused(() -> attempt.withOperationId(UUID.randomUUID().toString()).send(), "assertion-invalid");
    }

    @Test
    void anExpiredChallengeIsRefused() throws SQLException {
        var attempt = alice.attempt(UUID.randomUUID().toString(), BODY);
        try (Connection db = E2eDatabase.connect(); var expire = db.prepareStatement(
                "UPDATE attest_challenge SET expires_at = now() - interval '1 second' WHERE challenge_hash = ?")) {
            expire.setBytes(1, Digests.sha256(dev.opledger.attest.AttemptProof.Codec.base64Url(attempt.challenge(), "c")));
            assertThat(expire.executeUpdate()).isEqualTo(1);
        }

        assertRefused(attempt::send, "challenge-invalid");
    }

    @Test
    void aUsedChallengeIsRefused() throws SQLException {
        var first = alice.attempt(UUID.randomUUID().toString(), BODY);
        assertThat(first.send().statusCode()).isEqualTo(202);
        String otherOperation = UUID.randomUUID().toString();
        byte[] usedChallenge = dev.opledger.attest.AttemptProof.Codec.base64Url(first.challenge(), "c");
        byte[] assertion = alice.device.assertion(dev.opledger.attest.ClientData.hashOfAttempt(usedChallenge,
                dev.opledger.operation.OperationId.parse(otherOperation),
                dev.opledger.operation.Command.parse(BODY.getBytes()).payloadHash()));
        var reuse = new AttestedDevice.Attempt(alice, otherOperation, BODY, alice.keyId(), first.challenge(),
                dev.opledger.attest.AttemptProof.Codec.toBase64(assertion));

        assertRefused(reuse::send, "challenge-invalid");
    }

    @Test
    void anotherSubjectsChallengeIsRefused() throws SQLException {
        var mallory = new AttestedDevice(node, "mallory-" + UUID.randomUUID(), DeviceVariant.APPLE);
        assertThat(mallory.register().statusCode()).isEqualTo(201);
        byte[] alicesChallenge = alice.challenge();
        String operationId = UUID.randomUUID().toString();
        byte[] assertion = mallory.device.assertion(dev.opledger.attest.ClientData.hashOfAttempt(alicesChallenge,
                dev.opledger.operation.OperationId.parse(operationId),
                dev.opledger.operation.Command.parse(BODY.getBytes()).payloadHash()));
        var attempt = new AttestedDevice.Attempt(mallory, operationId, BODY, mallory.keyId(),
                dev.opledger.attest.AttemptProof.Codec.toBase64Url(alicesChallenge),
                dev.opledger.attest.AttemptProof.Codec.toBase64(assertion));

        assertRefused(mallory, attempt::send, "challenge-invalid");
    }

    @Test
    void anotherSubjectsKeyIsRefused() throws SQLException {
        var mallory = new AttestedDevice(node, "mallory-" + UUID.randomUUID(), DeviceVariant.APPLE);
        var alicesAttempt = alice.attempt(UUID.randomUUID().toString(), BODY);

        assertRefused(mallory, () -> alicesAttempt.sentBy(mallory).send(), "key-unknown");
    }

    @Test
    void anUnknownKeyIsRefused() throws SQLException {
        var attempt = alice.attempt(UUID.randomUUID().toString(), BODY);

        assertRefused(() -> attempt.withKeyId(java.util.Base64.getEncoder().encodeToString(new byte[32])).send(),
                "key-unknown");
    }

    @Test
    void aRevokedKeyIsRefused() throws SQLException {
        assertThat(alice.attempt(UUID.randomUUID().toString(), BODY).send().statusCode()).isEqualTo(202);
        try (Connection db = E2eDatabase.connect(); var revoke = db.prepareStatement(
                "UPDATE attest_key SET revoked_at = now(), revoked_by = 'e2e', revoke_reason = 'lost phone' WHERE key_id = ?")) {
            revoke.setBytes(1, alice.device.keyId());
            revoke.executeUpdate();
        }

        assertRefused(() -> alice.attempt(UUID.randomUUID().toString(), BODY).send(), "key-unknown");
    }

    // ---- registration attacks ----------------------------------------------------------------

    @Test
    void attestationsThatFailACheckAreRefusedAndStoreNoKey() throws SQLException {
        expectRegistrationRefused(DeviceVariant.APPLE.withRpIdOf(new AppId("ABCDE12345.com.example.other")), "RP_ID");
        expectRegistrationRefused(DeviceVariant.APPLE.withWrongEnvironment(), "AAGUID");
        expectRegistrationRefused(DeviceVariant.APPLE.withWrongNonce(), "NONCE");
        expectRegistrationRefused(DeviceVariant.APPLE.withUntrustedChain(), "CERTIFICATE_CHAIN");
        expectRegistrationRefused(DeviceVariant.APPLE.withLeafExpiredBefore(Instant.now().minusSeconds(3600)),
                "CERTIFICATE_CHAIN");
    }

    private void expectRegistrationRefused(DeviceVariant variant, String check) throws SQLException {
        var device = new AttestedDevice(node, "faulty-" + UUID.randomUUID(), variant);
        var response = device.register();

        assertThat(response.statusCode()).as(check).isEqualTo(401);
        assertThat(json(response).get("type").asString()).isEqualTo("https://opledger.dev/problems/attestation-invalid");
        assertThat(json(response).get("check").asString()).isEqualTo(check);
        try (Connection db = E2eDatabase.connect()) {
            assertThat(E2eQueries.list(db, "SELECT key_id FROM attest_key WHERE subject_id = ?", device.subject)).isEmpty();
        }
    }

    private void assertRefused(Supplier<HttpResponse<String>> attack, String type) throws SQLException {
        assertRefused(alice, attack, type);
    }

    /** The attack answers 401 with this type, and the ledger and the victim's counter stay as they were. */
    private void assertRefused(AttestedDevice attacker, Supplier<HttpResponse<String>> attack, String type)
            throws SQLException {
        long counterBefore;
        long attemptsBefore;
        long operationsBefore;
        try (Connection db = E2eDatabase.connect()) {
            counterBefore = signCount(db, alice);
            attemptsBefore = attemptCount(db, alice) + attemptCount(db, attacker);
            operationsBefore = E2eQueries.count(db, "SELECT count(*) FROM operation");
        }

        var response = attack.get();

        assertThat(response.statusCode()).as(response.body()).isEqualTo(401);
        assertThat(json(response).get("type").asString()).isEqualTo("https://opledger.dev/problems/" + type);
        try (Connection db = E2eDatabase.connect()) {
            assertThat(signCount(db, alice)).isEqualTo(counterBefore);
            assertThat(attemptCount(db, alice) + attemptCount(db, attacker)).isEqualTo(attemptsBefore);
            assertThat(E2eQueries.count(db, "SELECT count(*) FROM operation")).isEqualTo(operationsBefore);
        }
    }

    private static long signCount(Connection db, AttestedDevice device) throws SQLException {
        return E2eQueries.count(db, "SELECT sign_count FROM attest_key WHERE key_id = ?", device.device.keyId());
    }

    private static long attemptCount(Connection db, AttestedDevice device) throws SQLException {
        return E2eQueries.count(db, "SELECT count(*) FROM operation_attempt a JOIN operation o ON o.id = a.operation_ref "
                + "WHERE o.subject_id = ?", device.subject);
    }
}
