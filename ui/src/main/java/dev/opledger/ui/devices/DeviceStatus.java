package dev.opledger.ui.devices;

import dev.opledger.attest.DeviceKey;
import dev.opledger.ui.Formats;
import java.time.Instant;

/** A key's status in words: "Active", or "Revoked by admin at 2026-… UTC: lost phone". */
final class DeviceStatus {

    private DeviceStatus() {
    }

    static String of(DeviceKey key) {
        return key.revoked() ? "Revoked " + revocation(key) : "Active";
    }

    /** "by admin at 2026-… UTC: lost phone" for a revoked key, leaving out what is not recorded. */
    static String revocation(DeviceKey key) {
        var text = new StringBuilder();
        if (key.revokedBy() != null) {
            text.append("by ").append(key.revokedBy()).append(' ');
        }
        Instant revokedAt = key.revokedAt();
        text.append("at ").append(revokedAt == null ? "an unknown time" : Formats.instant(revokedAt));
        String reason = key.revokeReason();
        if (reason != null && !reason.isBlank()) {
            text.append(": ").append(reason);
        }
        return text.toString();
    }
}
