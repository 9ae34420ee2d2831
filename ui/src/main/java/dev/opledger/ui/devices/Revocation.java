package dev.opledger.ui.devices;

import dev.opledger.attest.AttestService;
import dev.opledger.attest.DeviceKey;
import dev.opledger.ui.ActionNotification;
import dev.opledger.ui.Formats;
import java.util.List;
import java.util.Optional;

/**
 * One revocation from the console: through {@link AttestService#revoke} (which checks the ADMIN
 * role and writes the audit entry), then the key read back so its row shows what is stored now,
 * also when someone else revoked it first, and a notification saying which of the two happened.
 */
final class Revocation {

    private final AttestService attest;
    private final int pageSize;

    Revocation(AttestService attest, int pageSize) {
        this.attest = attest;
        this.pageSize = pageSize;
    }

    /** Revokes the key and answers it as stored now; empty if it is no longer registered. */
    Optional<DeviceKey> revoke(DeviceKey key, String reason) {
        boolean revokedNow = attest.revoke(key.keyId(), reason);
        Optional<DeviceKey> current = current(key);
        ActionNotification.show("devices-notification", message(key, revokedNow, current), revokedNow);
        return current;
    }

    static String message(DeviceKey key, boolean revokedNow, Optional<DeviceKey> current) {
        String keyId = Formats.shortId(key.keyId());
        if (revokedNow) {
            return "Key " + keyId + " revoked: attempts signed with it are refused from now on.";
        }
        return current.map(stored -> stored.revoked()
                        ? "Nothing changed: key " + keyId + " was already revoked " + DeviceStatus.revocation(stored) + "."
                        : "Nothing changed: key " + keyId + " could not be revoked; please try again.")
                .orElse("Nothing changed: key " + keyId + " is not registered.");
    }

    /** The key's stored state, looked up among its subject's keys (a subject has a few). */
    private Optional<DeviceKey> current(DeviceKey key) {
        for (int offset = 0; ; offset += pageSize) {
            List<DeviceKey> page = attest.devices(key.subject(), offset, pageSize);
            Optional<DeviceKey> found = page.stream().filter(stored -> stored.keyId().equals(key.keyId())).findFirst();
            if (found.isPresent() || page.size() < pageSize) {
                return found;
            }
        }
    }
}
