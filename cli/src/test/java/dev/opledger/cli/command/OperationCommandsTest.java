package dev.opledger.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.cli.store.DeviceStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code submit}, {@code retry} and {@code show} against a node that verifies every assertion:
 * the protocol's headers, the same body bytes on every attempt, a fresh challenge and a higher
 * counter each time, and no counter used twice when a reply is lost.
 */
class OperationCommandsTest {

    private static final String OPERATION_ID = "0b6f5c2e-3f0c-4d47-9a36-2a8f1f0f4f11";
    private static final String ARGUMENTS = SubmitCommand.CHECKOUT_ARGUMENTS;
    private static final String BODY = "{\"type\":\"checkout\",\"arguments\":" + ARGUMENTS + "}";

    @TempDir
    Path home;

    FakeNode node;

    @BeforeEach
    void startNodeAndRegisterADevice() throws IOException {
        node = FakeNode.start();
        var created = run("device", "create", "phone", "--server", node.uri().toString(), "--subject", "alice");
        assertThat(created.exitCode()).as(created.out() + created.err()).isZero();
        node.requests.clear();
    }

    @AfterEach
    void stopNode() {
        node.close();
    }

    private CliRun run(String... args) {
        return CliRun.run(CliRun.context(home), args);
    }

    private CliRun submit(String arguments) {
        return run("submit", "--device", "phone", "--type", "checkout", "--arguments", arguments,
                "--operation-id", OPERATION_ID);
    }

    private DeviceStore store() {
        return new DeviceStore(home.resolve(".opledger/devices"));
    }

    @Test
    void submitSendsTheProtocolsHeadersAndByDefaultACheckout() {
        var run = run("submit", "--device", "phone");

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        String operationId = run.out().lines().findFirst().orElseThrow().replace("operationId: ", "");
        assertThat(operationId).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
        assertThat(run.out()).contains("HTTP 202", "Location: /v1/operations/" + operationId);
        assertThat(node.requests).extracting(r -> r.method() + " " + r.path())
                .containsExactly("POST /v1/attest/challenges", "POST /v1/operations");
        var attempt = node.requests.get(1);
        assertThat(attempt.headers()).containsOnlyKeys("authorization", "idempotency-key", "app-attest-key-id",
                "app-attest-challenge", "app-attest-assertion", "content-type", "content-length", "host", "user-agent");
        assertThat(attempt.header("Authorization")).startsWith("Bearer ey");
        assertThat(attempt.header("Idempotency-Key")).isEqualTo(operationId);
        assertThat(attempt.header("App-Attest-Key-Id"))
                .isEqualTo(Base64.getEncoder().encodeToString(store().load("phone").keyId()));
        assertThat(attempt.header("App-Attest-Challenge")).isEqualTo(node.issuedChallenges.getLast());
        assertThat(attempt.header("Content-Type")).isEqualTo("application/json");
        assertThat(new String(attempt.body(), StandardCharsets.UTF_8)).isEqualTo(BODY);
        assertThat(node.acceptedCounters).containsExactly(1L);
    }

    @Test
    void retryResendsTheSameBodyBytesWithANewChallengeAndAHigherCounter() {
        String asWritten = "{\"sku\": \"SKU-ESPRESSO\",  \"quantity\": 2, \"amount\": 99.80, \"currency\": \"EUR\", "
                + "\"recipient\": \"ann@example.com\"}";
        assertThat(submit(asWritten).exitCode()).isZero();

        var retry = run("retry", "--device", "phone", OPERATION_ID);

        assertThat(retry.exitCode()).as(retry.out() + retry.err()).isZero();
        assertThat(retry.out()).contains("HTTP 200", "Idempotent-Replayed: true");
        var attempts = node.requests("POST", "/v1/operations");
        assertThat(attempts).hasSize(2);
        assertThat(attempts.get(1).body()).isEqualTo(attempts.get(0).body());
        assertThat(new String(attempts.get(0).body(), StandardCharsets.UTF_8))
                .isEqualTo("{\"type\":\"checkout\",\"arguments\":" + asWritten + "}");
        assertThat(attempts.get(1).header("Idempotency-Key")).isEqualTo(OPERATION_ID);
        assertThat(attempts.get(1).header("App-Attest-Challenge")).isNotEqualTo(attempts.get(0).header("App-Attest-Challenge"));
        assertThat(node.acceptedCounters).containsExactly(1L, 2L);
        assertThat(store().load("phone").counter()).isEqualTo(2);
    }

    @Test
    void theOperationIsKeptBeforeItsFirstAttempt() {
        node.refuseChallenges = true;

        var failed = submit(ARGUMENTS);

        assertThat(failed.exitCode()).isEqualTo(1);
        assertThat(failed.out()).contains("operationId: " + OPERATION_ID);
        assertThat(failed.err()).contains("error: the node issued no challenge: HTTP 503");
        assertThat(store().load("phone").operation(OPERATION_ID).orElseThrow().body())
                .isEqualTo(BODY.getBytes(StandardCharsets.UTF_8));

        node.refuseChallenges = false;
        var retry = run("retry", "--device", "phone", OPERATION_ID);

        assertThat(retry.exitCode()).as(retry.out() + retry.err()).isZero();
        assertThat(retry.out()).contains("HTTP 202");
    }

    @Test
    void aLostReplyNeverMakesTheDeviceReuseItsCounter() {
        node.loseNextOperationReply = true;

        var lost = submit(ARGUMENTS);

        assertThat(lost.exitCode()).isEqualTo(1);
        assertThat(lost.err()).contains("error: no answer from");
        assertThat(node.acceptedCounters).containsExactly(1L);
        assertThat(store().load("phone").counter()).isEqualTo(1);

        var retry = run("retry", "--device", "phone", OPERATION_ID);

        assertThat(retry.exitCode()).as(retry.out() + retry.err()).isZero();
        assertThat(retry.out()).contains("HTTP 200", "Idempotent-Replayed: true");
        assertThat(node.acceptedCounters).containsExactly(1L, 2L);
    }

    @Test
    void showReadsTheOperationFromTheNode() {
        submit(ARGUMENTS);

        var show = run("show", "--device", "phone", OPERATION_ID.toUpperCase());

        assertThat(show.exitCode()).as(show.out() + show.err()).isZero();
        assertThat(show.out()).startsWith("HTTP 200\n").contains(OPERATION_ID, "\"subject\":\"alice\"");
        assertThat(node.requests.getLast().path()).isEqualTo("/v1/operations/" + OPERATION_ID);
        assertThat(node.requests.getLast().header("Authorization")).startsWith("Bearer ");
    }

    @Test
    void anotherBodyForAStoredOperationIdIsRefusedBeforeAnythingIsSent() {
        submit(ARGUMENTS);

        var conflict = submit(ARGUMENTS.replace("\"quantity\":1", "\"quantity\":2"));

        assertThat(conflict.exitCode()).isEqualTo(2);
        assertThat(conflict.err()).contains("stored with another body");
        assertThat(node.requests("POST", "/v1/operations")).hasSize(1);
    }

    @Test
    void usageErrorsSendNothing() {
        var notAnObject = submit("[1, 2]");
        var notJson = submit("{sku: A-1}");
        var badType = run("submit", "--device", "phone", "--type", "9lives");
        var badId = run("submit", "--device", "phone", "--type", "checkout", "--operation-id", "1-1-1-1-1");
        var unknownDevice = run("retry", "--device", "tablet", OPERATION_ID);
        var neverSubmitted = run("retry", "--device", "phone", OPERATION_ID);

        assertThat(List.of(notAnObject, notJson, badType, badId, unknownDevice, neverSubmitted))
                .allSatisfy(run -> assertThat(run.exitCode()).as(run.err()).isEqualTo(2));
        assertThat(unknownDevice.err()).contains("no device named tablet");
        assertThat(neverSubmitted.err()).contains("never submitted operation " + OPERATION_ID);
        assertThat(node.requests).isEmpty();
        assertThat(store().load("phone").operations()).isEmpty();
    }
}
