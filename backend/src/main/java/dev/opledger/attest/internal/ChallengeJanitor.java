package dev.opledger.attest.internal;

import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Deletes challenges an hour after they expired: past expiry they can only be refused, which an
 * absent challenge is too. Every node runs it; the DELETE is idempotent.
 */
@Component
class ChallengeJanitor {

    private static final Logger log = LoggerFactory.getLogger(ChallengeJanitor.class);
    private static final Duration KEEP_AFTER_EXPIRY = Duration.ofHours(1);

    private final ChallengeRepository challenges;
    private final Clock clock;

    ChallengeJanitor(ChallengeRepository challenges, Clock clock) {
        this.challenges = challenges;
        this.clock = clock;
    }

    @Scheduled(fixedDelayString = "${opledger.attest.janitor-interval:PT5M}", initialDelayString = "PT1M")
    void deleteExpired() {
        int deleted = challenges.deleteExpiredBefore(clock.instant().minus(KEEP_AFTER_EXPIRY));
        if (deleted > 0) {
            log.debug("deleted {} expired challenges", deleted);
        }
    }
}
