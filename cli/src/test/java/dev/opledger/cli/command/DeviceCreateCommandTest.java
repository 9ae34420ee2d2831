package dev.opledger.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.attest.AppId;
import dev.opledger.cli.store.DeviceStore;
import dev.opledger.cli.token.LocalTokens;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/** {@code device create} registers a key with the protocol's two requests and keeps the device. */
class DeviceCreateCommandTest {

    @TempDir
    Path home;

    FakeNode node;

    @BeforeEach
    void startNode() throws IOException {
        node = FakeNode.start();
    }

    @AfterEach
    void stopNode() {
        node.close();
    }

    private CliRun create(String... more) {
        List<String> args = new ArrayList<>(List.of("device", "create", "phone", "--server", node.uri().toString()));
        args.addAll(List.of(more));
        return CliRun.run(CliRun.context(home), args.toArray(String[]::new));
    }

    private DeviceStore store() {
        return new DeviceStore(home.resolve(".opledger/devices"));
    }

    @Test
    void registersTheKeyWithAChallengeAndItsAttestationAndKeepsTheDevice() {
        var run = create("--subject", "alice");

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(node.requests).extracting(r -> r.method() + " " + r.path())
                .containsExactly("POST /v1/attest/challenges", "POST /v1/attest/keys");
        var registration = node.requests.get(1);
        assertThat(registration.header("Content-Type")).isEqualTo("application/json");
        var body = JsonMapper.builder().build().readTree(registration.body());
        assertThat(body.propertyNames()).containsExactly("keyId", "attestationObject", "challenge");
        assertThat(body.get("challenge").asString()).isEqualTo(node.issuedChallenges.getFirst());
        for (var request : node.requests) {
            String token = request.header("Authorization").replaceFirst("^Bearer ", "");
            assertThat(TokenCommandTest.decode(LocalTokens.DEFAULT_SECRET, token).getSubject()).isEqualTo("alice");
        }

        var device = store().load("phone");
        String keyId = Base64.getEncoder().encodeToString(device.keyId());
        assertThat(body.get("keyId").asString()).isEqualTo(keyId);
        assertThat(node.keys).containsOnlyKeys(keyId);
        assertThat(device.subject()).isEqualTo("alice");
        assertThat(device.server()).isEqualTo(node.uri());
        assertThat(device.counter()).isZero();
        assertThat(run.out()).contains("HTTP 201", "device phone registered for alice, keyId " + keyId);
    }

    @Test
    void anIos27DeviceSendsExtensionDataTheNodeKeeps() {
        var run = create("--ios27");

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(node.keys.values()).singleElement().satisfies(key -> assertThat(key.extensionData()).isNotEmpty());
        assertThat(store().load("phone").ios27()).isTrue();
    }

    @Test
    void aDeviceGivenATokenBelongsToItsSubject() {
        String token = LocalTokens.mint("carol", LocalTokens.DEFAULT_SECRET, Instant.now(),
                Duration.ofMinutes(5));

        var run = create("--token", token);

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(node.requests).allSatisfy(r -> assertThat(r.header("Authorization")).isEqualTo("Bearer " + token));
        assertThat(store().load("phone").subject()).isEqualTo("carol");
    }

    @Test
    void aRefusedRegistrationKeepsNoDevice() {
        node.apps = Set.of(new AppId("ABCDE12345.com.example.other"));

        var run = create();

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).contains("HTTP 401", "RP_ID", "not registered");
        assertThat(store().exists("phone")).isFalse();
    }

    @Test
    void anExistingDeviceIsNeverReplaced() {
        create();
        int requests = node.requests.size();

        var again = create();

        assertThat(again.exitCode()).isEqualTo(2);
        assertThat(again.err()).contains("already exists");
        assertThat(node.requests).hasSize(requests);
    }
}
