package dev.opledger.effect.internal;

import dev.opledger.effect.CrashPoints;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Test-only fault injection for the crash tests: with {@code opledger.test.crash-at=<point>@<stepKey>}
 * the JVM halts at that point of that step, as a SIGKILL would stop it (no shutdown hooks, nothing
 * flushed). Unset in every real configuration.
 */
@Component
public class CrashPoint implements CrashPoints {

    /** Where a run can be made to die. */
    public enum Point { BEFORE_EFFECT_CALL, AFTER_TOOL_COMMIT, AFTER_EFFECT_RECORD, AWAITING_APPROVAL }

    private static final Logger log = LoggerFactory.getLogger(CrashPoint.class);

    private final String target;

    CrashPoint(@Value("${opledger.test.crash-at:}") String target) {
        this.target = target.toLowerCase(Locale.ROOT);
        if (!target.isBlank()) {
            log.warn("CRASH INJECTION: this node halts at {}", target);
        }
    }

    @Override
    public void awaitingApproval(String stepKey) {
        at(Point.AWAITING_APPROVAL, stepKey);
    }

    public void at(Point point, String stepKey) {
        if (!target.isEmpty() && target.equals(point.name().toLowerCase(Locale.ROOT).replace('_', '-') + "@"
                + stepKey.toLowerCase(Locale.ROOT))) {
            System.err.println("CRASH INJECTION: halting at " + target);
            Runtime.getRuntime().halt(137);
        }
    }
}
