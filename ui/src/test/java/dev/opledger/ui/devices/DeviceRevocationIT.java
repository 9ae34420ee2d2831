package dev.opledger.ui.devices;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.attest.AttestService;
import dev.opledger.attest.DeviceKey;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.NodeIntegrationTest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.authentication.WebAuthenticationDetails;

/**
 * What the devices view relies on, on a full node: {@link AttestService} lists keys to support
 * staff, refuses them a revocation, and lets an admin revoke with the audit entry written.
 */
@NodeIntegrationTest
class DeviceRevocationIT {

    private static final SecureRandom RANDOM = new SecureRandom();

    @Autowired
    AttestService attest;

    @Autowired
    JdbcTemplate jdbc;

    @AfterEach
    void clearSecurityContext() {
        SecurityContextHolder.clearContext();
    }

    @Test
    void supportSeesTheKeyButCannotRevokeIt() {
        String subject = "devices-" + UUID.randomUUID();
        String keyId = insertKey(subject);
        signedInAs("support-person", "ROLE_SUPPORT");

        assertThat(attest.devices(new SubjectId(subject), 0, 10)).extracting(DeviceKey::keyId).containsExactly(keyId);
        assertThatThrownBy(() -> attest.revoke(keyId, "not mine to revoke")).isInstanceOf(AccessDeniedException.class);

        assertThat(keyRow(keyId).get("revoked_at")).isNull();
        assertThat(auditRows(keyId)).isZero();
    }

    @Test
    void adminRevokesAndTheRevocationIsAudited() {
        String subject = "devices-" + UUID.randomUUID();
        String keyId = insertKey(subject);
        var admin = UsernamePasswordAuthenticationToken.authenticated("admin-person", null,
                AuthorityUtils.createAuthorityList("ROLE_ADMIN"));
        admin.setDetails(new WebAuthenticationDetails("203.0.113.9", null));
        SecurityContextHolder.getContext().setAuthentication(admin);

        assertThat(attest.revoke(keyId, "  device reported lost ")).isTrue();

        Map<String, Object> key = keyRow(keyId);
        assertThat(key.get("revoked_at")).isNotNull();
        assertThat(key.get("revoked_by")).isEqualTo("admin-person");
        assertThat(key.get("revoke_reason")).isEqualTo("device reported lost");
        Map<String, Object> audit = jdbc.queryForMap("SELECT actor, action, detail, client_address FROM console_audit "
                + "WHERE target = ?", keyId);
        assertThat(audit).containsEntry("actor", "admin-person").containsEntry("action", "REVOKE_DEVICE_KEY")
                .containsEntry("detail", "device reported lost").containsEntry("client_address", "203.0.113.9");
        DeviceKey listed = attest.devices(new SubjectId(subject), 0, 10).getFirst();
        assertThat(listed.revoked()).isTrue();
        assertThat(listed.revokedBy()).isEqualTo("admin-person");
    }

    @Test
    void revokingARevokedKeyChangesNothing() {
        String keyId = insertKey("devices-" + UUID.randomUUID());
        signedInAs("admin-person", "ROLE_ADMIN");
        assertThat(attest.revoke(keyId, "first")).isTrue();
        Object revokedAt = keyRow(keyId).get("revoked_at");

        assertThat(attest.revoke(keyId, "second")).isFalse();

        assertThat(keyRow(keyId)).containsEntry("revoke_reason", "first").containsEntry("revoked_at", revokedAt);
        assertThat(auditRows(keyId)).isOne();
    }

    @Test
    void aBlankReasonIsRefused() {
        String keyId = insertKey("devices-" + UUID.randomUUID());
        signedInAs("admin-person", "ROLE_ADMIN");

        assertThatThrownBy(() -> attest.revoke(keyId, " ")).isInstanceOf(IllegalArgumentException.class);

        assertThat(keyRow(keyId).get("revoked_at")).isNull();
    }

    /** A registered key as the attest stage stores it, without going through an attestation. */
    private String insertKey(String subject) {
        byte[] keyId = random(32);
        byte[] publicKey = random(65);
        publicKey[0] = 0x04;
        jdbc.update("INSERT INTO attest_key (key_id, subject_id, public_key, app_id, environment, receipt, "
                        + "registration_challenge_hash) VALUES (?, ?, ?, ?, ?, ?, ?)",
                keyId, subject, publicKey, "OPLEDGERDV.dev.opledger.simulator", "DEVELOPMENT", random(64), random(32));
        return Base64.getEncoder().encodeToString(keyId);
    }

    private Map<String, Object> keyRow(String keyId) {
        return jdbc.queryForMap("SELECT revoked_at, revoked_by, revoke_reason FROM attest_key WHERE key_id = ?",
                (Object) Base64.getDecoder().decode(keyId));
    }

    private long auditRows(String keyId) {
        Long count = jdbc.queryForObject("SELECT count(*) FROM console_audit WHERE action = 'REVOKE_DEVICE_KEY' "
                + "AND target = ?", Long.class, keyId);
        return count == null ? 0 : count;
    }

    private static byte[] random(int length) {
        byte[] bytes = new byte[length];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    private static void signedInAs(String name, String authority) {
        SecurityContextHolder.getContext().setAuthentication(UsernamePasswordAuthenticationToken.authenticated(
                name, null, AuthorityUtils.createAuthorityList(authority)));
    }
}
