package dev.opledger.cli.load;

import dev.opledger.attest.AppId;
import dev.opledger.attest.AttestEnvironment;
import dev.opledger.attest.ClientData;
import dev.opledger.cli.device.SimulatedDevice;
import dev.opledger.cli.http.AttemptHeaders;
import dev.opledger.cli.http.Challenge;
import dev.opledger.cli.http.NodeClient;
import dev.opledger.operation.Command;
import dev.opledger.operation.OperationId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * {@code clients} virtual threads, each a user with a device, claiming new operations in a loop:
 * attested (a challenge, an assertion, the claim) or plain (the claim alone). A warm-up phase runs
 * first and is not counted.
 */
public final class ClaimLoad {

    /** A checkout the node's schema accepts (a refused one would measure the refusal, not the claim). */
    private static final byte[] BODY = CheckoutBody.bytes();

    private final NodeClient node;
    private final boolean attested;
    private final List<Client> clients = new ArrayList<>();

    private final boolean duplicates;

    private record Client(String token, SimulatedDevice device, List<OperationId> created) {
    }

    /**
     * Registers one device per client when attested; with {@code duplicates} (never attested),
     * each client first claims {@value McpTaskLoad#DUPLICATE_KEYS} operations, which its loop then
     * repeats at random, expecting 200 {@code Idempotent-Replayed}.
     */
    public ClaimLoad(NodeClient node, int clientCount, boolean attested, boolean duplicates, AppId app,
            Function<String, String> tokenFor) {
        if (attested && duplicates) {
            throw new IllegalArgumentException("duplicates are repeated without attestation");
        }
        this.node = node;
        this.attested = attested;
        this.duplicates = duplicates;
        for (int i = 0; i < clientCount; i++) {
            String token = tokenFor.apply("load-" + i + "-" + System.nanoTime());
            var device = SimulatedDevice.create(app, AttestEnvironment.DEVELOPMENT);
            if (attested) {
                Challenge challenge = node.challenge(token);
                var reply = node.registerKey(token, device.keyId(), device.attestation(
                        ClientData.hashOfRegistration(challenge.bytes())), challenge);
                if (reply.status() != 201) {
                    throw new IllegalStateException("registering a load device failed: HTTP " + reply.status());
                }
            }
            List<OperationId> created = new ArrayList<>();
            for (int k = 0; duplicates && k < McpTaskLoad.DUPLICATE_KEYS; k++) {
                var operationId = OperationId.random();
                int status = node.submitUnattested(token, operationId, BODY, Duration.ZERO).status();
                if (status != 202) {
                    throw new IllegalStateException("claiming an operation to repeat failed: HTTP " + status);
                }
                created.add(operationId);
            }
            clients.add(new Client(token, device, created));
        }
    }

    /** Warms up, runs {@code afterWarmUp} (the requests of the warm-up all answered), then measures. */
    public LoadResult run(Duration warmUp, Runnable afterWarmUp, Duration measured) throws Exception {
        phase(warmUp);
        afterWarmUp.run();
        long start = System.nanoTime();
        List<Tally> tallies = phase(measured);
        return Tally.sum(tallies, (System.nanoTime() - start) / 1e9);
    }

    private List<Tally> phase(Duration length) throws Exception {
        return LoadPhase.run(length, clients.stream()
                .map(client -> (LoadPhase.Loop<Tally>) stop -> loop(client, stop))
                .toList());
    }

    private Tally loop(Client client, AtomicBoolean stop) {
        long claims = 0;
        long requests = 0;
        long unexpected = 0;
        var latencies = new long[1 << 16];
        int recorded = 0;
        byte[] payloadHash = Command.parse(BODY).payloadHash().bytes();
        while (!stop.get()) {
            var operationId = duplicates
                    ? client.created().get(java.util.concurrent.ThreadLocalRandom.current().nextInt(client.created().size()))
                    : OperationId.random();
            long began = System.nanoTime();
            try {
                boolean expected;
                if (attested) {
                    Challenge challenge = node.challenge(client.token());
                    requests++;
                    byte[] assertion = client.device().assertion(ClientData.hashOfAttempt(challenge.bytes(), operationId,
                            new dev.opledger.operation.PayloadHash(payloadHash)));
                    expected = node.submit(client.token(), new AttemptHeaders(operationId, client.device().keyId(),
                            challenge, assertion), BODY).status() == 202;
                } else {
                    var reply = node.submitUnattested(client.token(), operationId, BODY, Duration.ZERO);
                    expected = duplicates
                            ? reply.status() == 200 && reply.header("Idempotent-Replayed").filter("true"::equals).isPresent()
                            : reply.status() == 202;
                }
                requests++;
                if (expected) {
                    claims++;
                    if (recorded == latencies.length) {
                        latencies = java.util.Arrays.copyOf(latencies, latencies.length * 2);
                    }
                    latencies[recorded++] = System.nanoTime() - began;
                } else {
                    unexpected++;
                }
            } catch (RuntimeException e) {
                unexpected++;
            }
        }
        return new Tally(claims, requests, unexpected, java.util.Arrays.copyOf(latencies, recorded));
    }
}
