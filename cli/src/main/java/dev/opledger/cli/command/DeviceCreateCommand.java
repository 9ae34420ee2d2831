package dev.opledger.cli.command;

import dev.opledger.attest.AppId;
import dev.opledger.attest.AttestEnvironment;
import dev.opledger.attest.ClientData;
import dev.opledger.cli.device.DeviceVariant;
import dev.opledger.cli.device.SimulatedDevice;
import dev.opledger.cli.http.Challenge;
import dev.opledger.cli.http.NodeClient;
import dev.opledger.cli.http.Reply;
import dev.opledger.cli.store.DeviceExistsException;
import dev.opledger.cli.store.StoredDevice;
import dev.opledger.cli.token.LocalTokens;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "create", description = {
    "Makes a device key, registers it with the node and keeps the device.",
    "Registration is a challenge, then the key's attestation (POST /v1/attest/keys).",
    "The attestation chains to the development root: only a local or test node accepts it."})
class DeviceCreateCommand implements Callable<Integer> {

    private static final Duration TOKEN_LIFETIME = Duration.ofMinutes(10);

    private final CliContext context;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "NAME", description = "what to call the device")
    String name = "";

    @Option(names = "--server", defaultValue = "http://localhost:8080", paramLabel = "URL",
            description = "the node (default: ${DEFAULT-VALUE})")
    URI server = URI.create("http://localhost:8080");

    @ArgGroup(exclusive = true)
    @Nullable Identity identity;

    static class Identity {
        @Option(names = "--subject", paramLabel = "S",
                description = "whose device it is; tokens are minted for the local profile (default: alice)")
        @Nullable String subject;

        @Option(names = "--token", paramLabel = "T", description = "a bearer token; the device belongs to its sub")
        @Nullable String token;
    }

    @Option(names = "--app", defaultValue = "OPLEDGERDV.dev.opledger.simulator", paramLabel = "TEAM.BUNDLE",
            description = "the App ID whose rpIdHash the device writes (default: ${DEFAULT-VALUE})")
    String app = "";

    @Option(names = "--environment", defaultValue = "development", paramLabel = "ENV",
            description = "development or production: the aaguid (default: ${DEFAULT-VALUE})")
    AttestEnvironment environment = AttestEnvironment.DEVELOPMENT;

    @Option(names = "--ios27", description = "append iOS 27's extension data to authenticator data")
    boolean ios27;

    @Mixin
    StoreOption store = new StoreOption();

    DeviceCreateCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        var devices = store.store(context);
        if (devices.exists(name)) {
            throw new DeviceExistsException(name, devices.directory());
        }
        AppId appId = new AppId(app);
        String token = identity != null && identity.token != null ? identity.token : null;
        String subject = token != null ? LocalTokens.subject(token)
                : identity != null && identity.subject != null ? identity.subject : "alice";
        Instant now = context.clock().instant();
        String bearer = token != null ? token : LocalTokens.mint(subject, context.jwtSecret(), now, TOKEN_LIFETIME);
        var device = SimulatedDevice.create(appId, environment, ios27 ? DeviceVariant.APPLE.withIos27()
                : DeviceVariant.APPLE, context.clock());

        var out = spec.commandLine().getOut();
        try (var node = new NodeClient(server)) {
            Challenge challenge = node.challenge(bearer);
            byte[] attestation = device.attestation(ClientData.hashOfRegistration(challenge.bytes()));
            Reply reply = node.registerKey(bearer, device.keyId(), attestation, challenge);
            ReplyPrinter.print(out, reply);
            if (!reply.successful()) {
                out.println("device " + name + " was not registered and is not kept");
                return 1;
            }
        }
        devices.create(new StoredDevice(name, server, subject, app, environment, ios27, device.keyId(),
                device.publicKey(), device.privateKey(), device.counter(), now, List.of()));
        out.println("device " + name + " registered for " + subject + ", keyId "
                + Base64.getEncoder().encodeToString(device.keyId()));
        return 0;
    }
}
