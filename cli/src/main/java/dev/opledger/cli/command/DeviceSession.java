package dev.opledger.cli.command;

import dev.opledger.attest.AppId;
import dev.opledger.cli.device.DeviceVariant;
import dev.opledger.cli.device.SimulatedDevice;
import dev.opledger.cli.http.NodeClient;
import dev.opledger.cli.store.DeviceStore;
import dev.opledger.cli.store.StoredDevice;
import dev.opledger.cli.token.LocalTokens;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;

/** A stored device, ready to talk to its node: its store, its record and a bearer token. */
record DeviceSession(DeviceStore store, StoredDevice device, String token) {

    private static final Duration TOKEN_LIFETIME = Duration.ofMinutes(10);

    static DeviceSession open(CliContext context, DeviceOptions options) {
        DeviceStore store = options.store.store(context);
        StoredDevice device = store.load(options.name);
        String token = options.token != null ? options.token
                : LocalTokens.mint(device.subject(), context.jwtSecret(), context.clock().instant(), TOKEN_LIFETIME);
        return new DeviceSession(store, device, token);
    }

    NodeClient client() {
        return new NodeClient(device.server());
    }

    /** The device's key, about to assert with {@code lastCounter + 1}. */
    SimulatedDevice simulated(Clock clock, long lastCounter) {
        var simulated = SimulatedDevice.restore(device.privateKey(), device.publicKey(), new AppId(device.app()),
                device.environment(), device.ios27() ? DeviceVariant.APPLE.withIos27() : DeviceVariant.APPLE, clock,
                lastCounter);
        if (!Arrays.equals(simulated.keyId(), device.keyId())) {
            throw new IllegalStateException("the file of device " + device.name() + " is inconsistent: "
                    + "its keyId is not SHA-256 of its public key");
        }
        return simulated;
    }
}
