package dev.opledger.ui.devices;

import dev.opledger.attest.AppId;
import dev.opledger.attest.AttestEnvironment;
import dev.opledger.attest.DeviceKey;
import dev.opledger.operation.SubjectId;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** Device key records for the view's unit tests. */
final class DeviceKeys {

    static final String KEY_ID = "q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA=";
    static final Instant REGISTERED = Instant.parse("2026-11-30T10:00:00Z");
    static final Instant REVOKED = Instant.parse("2026-11-30T12:34:56.789Z");

    private DeviceKeys() {
    }

    static DeviceKey active() {
        return key(null, null, null);
    }

    static DeviceKey revoked(@Nullable String by, @Nullable String reason) {
        return key(REVOKED, by, reason);
    }

    private static DeviceKey key(@Nullable Instant revokedAt, @Nullable String by, @Nullable String reason) {
        return new DeviceKey(KEY_ID, new SubjectId("alice"), new AppId("OPLEDGERDV.dev.opledger.simulator"),
                AttestEnvironment.DEVELOPMENT, 3, REGISTERED, null, revokedAt, by, reason);
    }
}
