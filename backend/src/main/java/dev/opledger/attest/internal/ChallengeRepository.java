package dev.opledger.attest.internal;

import dev.opledger.operation.SubjectId;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** Challenges, stored by their SHA-256: issued to a subject, consumed once. */
@Repository
public class ChallengeRepository {

    /** What consuming a challenge found. */
    public enum Consumption { FRESH, EXPIRED, UNUSABLE }

    private final JdbcTemplate jdbc;

    ChallengeRepository(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public void issue(byte[] challengeHash, SubjectId subject, Instant expiresAt) {
        jdbc.update("INSERT INTO attest_challenge (challenge_hash, subject_id, expires_at) VALUES (?, ?, ?)",
                challengeHash, subject.value(), Timestamp.from(expiresAt));
    }

    /** Marks the subject's unused challenge used; unknown, used or foreign ones are UNUSABLE. */
    public Consumption consume(byte[] challengeHash, SubjectId subject) {
        List<Boolean> fresh = jdbc.queryForList("UPDATE attest_challenge SET consumed_at = now() "
                + "WHERE challenge_hash = ? AND subject_id = ? AND consumed_at IS NULL "
                + "RETURNING expires_at > now()", Boolean.class, challengeHash, subject.value());
        if (fresh.isEmpty()) {
            return Consumption.UNUSABLE;
        }
        return Boolean.TRUE.equals(fresh.getFirst()) ? Consumption.FRESH : Consumption.EXPIRED;
    }

    /** Drops challenges that expired before {@code before}; returns how many. */
    public int deleteExpiredBefore(Instant before) {
        return jdbc.update("DELETE FROM attest_challenge WHERE expires_at < ?", Timestamp.from(before));
    }
}
