package dev.opledger.attest.internal;

import dev.opledger.attest.AppId;
import dev.opledger.attest.AttestEnvironment;
import dev.opledger.attest.DeviceKey;
import dev.opledger.attest.VerifiedAttestation;
import dev.opledger.operation.SubjectId;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** Registered device keys and the atomic use of a challenge with a counter advance. */
@Repository
public class KeyRepository {

    /** A key's registration, to answer a retried registration. */
    public record Registration(SubjectId subject, byte[] registrationChallengeHash, AppId app,
            AttestEnvironment environment, Instant registeredAt) {
    }

    /**
     * What the attempt statement found, before and after its own changes.
     *
     * @param challengeFresh true: consumed now and unexpired; false: consumed now but expired;
     *     null: not consumed by this statement (unknown, used before, or another subject's)
     * @param advanced the key's counter moved to the assertion's counter
     * @param storedCounter the counter before this statement
     * @param challengeUsedBefore the challenge exists for this subject and was consumed earlier
     */
    public record AttemptState(@Nullable Boolean challengeFresh, boolean advanced, long storedCounter, boolean revoked,
            boolean challengeUsedBefore) {
    }

    // One statement: consume the subject's challenge and, only if it was fresh, advance the key's
    // counter, so one assertion is accepted at most once however many times it is sent at once.
    // The outer SELECT reads the snapshot from before both updates, which tells why a refusal happened.
    private static final String ATTEMPT = """
            WITH challenge AS (
              UPDATE attest_challenge SET consumed_at = now()
              WHERE challenge_hash = ? AND subject_id = ? AND consumed_at IS NULL
              RETURNING expires_at > now() AS fresh
            ), advanced AS (
              UPDATE attest_key SET sign_count = ?, last_used_at = now()
              WHERE key_id = ? AND subject_id = ? AND revoked_at IS NULL AND sign_count < ?
                AND (SELECT fresh FROM challenge)
              RETURNING 1
            )
            SELECT (SELECT fresh FROM challenge) AS challenge_fresh,
                   EXISTS (SELECT 1 FROM advanced) AS advanced,
                   k.sign_count AS stored_counter,
                   k.revoked_at IS NOT NULL AS revoked,
                   EXISTS (SELECT 1 FROM attest_challenge c WHERE c.challenge_hash = ? AND c.subject_id = ?
                           AND c.consumed_at IS NOT NULL) AS challenge_used_before
            FROM attest_key k WHERE k.key_id = ?
            """;

    private final JdbcTemplate jdbc;

    KeyRepository(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Stores a verified key; empty when the keyId is already registered. */
    public Optional<Instant> insert(VerifiedAttestation key, SubjectId subject, byte[] registrationChallengeHash) {
        List<Instant> registered = jdbc.query("INSERT INTO attest_key (key_id, subject_id, public_key, app_id, "
                        + "environment, receipt, extension_data, registration_challenge_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                        + "ON CONFLICT (key_id) DO NOTHING RETURNING registered_at",
                (row, n) -> row.getTimestamp(1).toInstant(),
                key.keyId(), subject.value(), key.publicKey(), key.app().value(), key.environment().name(),
                key.receipt(), key.extensionData().length == 0 ? null : key.extensionData(), registrationChallengeHash);
        return registered.stream().findFirst();
    }

    public Optional<Registration> registration(byte[] keyId) {
        return jdbc.query("SELECT subject_id, registration_challenge_hash, app_id, environment, registered_at "
                        + "FROM attest_key WHERE key_id = ?",
                (row, n) -> new Registration(new SubjectId(row.getString(1)), row.getBytes(2), new AppId(row.getString(3)),
                        AttestEnvironment.valueOf(row.getString(4)), row.getTimestamp(5).toInstant()),
                (Object) keyId).stream().findFirst();
    }

    public Optional<StoredKey> find(byte[] keyId) {
        return jdbc.query("SELECT subject_id, public_key, app_id, environment FROM attest_key WHERE key_id = ?",
                (row, n) -> new StoredKey(new SubjectId(row.getString(1)), row.getBytes(2), new AppId(row.getString(3)),
                        AttestEnvironment.valueOf(row.getString(4))),
                (Object) keyId).stream().findFirst();
    }

    public Optional<AttemptState> useChallengeAndAdvance(byte[] keyId, SubjectId subject, byte[] challengeHash,
            long counter) {
        return jdbc.query(ATTEMPT, (row, n) -> new AttemptState(
                        (Boolean) row.getObject("challenge_fresh"), row.getBoolean("advanced"),
                        row.getLong("stored_counter"), row.getBoolean("revoked"), row.getBoolean("challenge_used_before")),
                challengeHash, subject.value(), counter, keyId, subject.value(), counter, challengeHash, subject.value(),
                keyId).stream().findFirst();
    }

    public List<DeviceKey> devices(@Nullable SubjectId subject, int offset, int limit) {
        var sql = new StringBuilder("SELECT key_id, subject_id, app_id, environment, sign_count, registered_at, "
                + "last_used_at, revoked_at, revoked_by, revoke_reason FROM attest_key");
        List<Object> arguments = new ArrayList<>();
        if (subject != null) {
            sql.append(" WHERE subject_id = ?");
            arguments.add(subject.value());
        }
        sql.append(" ORDER BY registered_at DESC, key_id OFFSET ? LIMIT ?");
        arguments.add(offset);
        arguments.add(limit);
        return jdbc.query(sql.toString(), (row, n) -> device(row), arguments.toArray());
    }

    /** Revokes a key that is not revoked yet; false when there is no such key or it already is. */
    public boolean revoke(byte[] keyId, String actor, String reason) {
        return jdbc.update("UPDATE attest_key SET revoked_at = now(), revoked_by = ?, revoke_reason = ? "
                + "WHERE key_id = ? AND revoked_at IS NULL", actor, reason, keyId) == 1;
    }

    private static DeviceKey device(ResultSet row) throws SQLException {
        return new DeviceKey(Base64.getEncoder().encodeToString(row.getBytes("key_id")),
                new SubjectId(row.getString("subject_id")), new AppId(row.getString("app_id")),
                AttestEnvironment.valueOf(row.getString("environment")), row.getLong("sign_count"),
                row.getTimestamp("registered_at").toInstant(), instant(row.getTimestamp("last_used_at")),
                instant(row.getTimestamp("revoked_at")), row.getString("revoked_by"), row.getString("revoke_reason"));
    }

    private static @Nullable Instant instant(@Nullable Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}
