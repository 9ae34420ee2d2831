package dev.opledger.effect;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Automatic retries of effects ({@code opledger.effects}), which follow the repeat class like any
 * repeat: a never-repeat tool is not retried after an unknown outcome. These are the defaults: a
 * tool's retry policy in the registry ({@code classification.RetryPolicy}) wins where it says more.
 *
 * @param maxCalls calls of one step in one run, the first included
 * @param backoff wait before the second call, doubled for each further one
 * @param taskPollInterval between two polls of a downstream task whose server suggests no
 *     interval ({@code pollIntervalMs}); the server's own interval is always honoured
 * @param taskTimeout how long one run follows a downstream task that is not terminal; then the
 *     step needs review, with the task's handle kept for the run that resumes it
 * @param unreachableWait how long a step waits for a tool server that refuses connections (nothing
 *     was sent, so it is no unknown outcome and no call): the run goes on once the server answers
 *     its tool listing again, or the step needs review after this long
 */
@ConfigurationProperties("opledger.effects")
public record EffectProperties(@DefaultValue("3") int maxCalls, @DefaultValue("200ms") Duration backoff,
        @DefaultValue("1s") Duration taskPollInterval, @DefaultValue("10m") Duration taskTimeout,
        @DefaultValue("2m") Duration unreachableWait) {

    @ConstructorBinding
    public EffectProperties {
        if (maxCalls < 1) {
            throw new IllegalArgumentException("opledger.effects.max-calls must be at least 1");
        }
        if (unreachableWait.isNegative()) {
            throw new IllegalArgumentException("opledger.effects.unreachable-wait must not be negative");
        }
        if (taskPollInterval.isNegative() || taskPollInterval.isZero() || taskTimeout.isNegative()
                || taskTimeout.isZero()) {
            throw new IllegalArgumentException(
                    "opledger.effects.task-poll-interval and opledger.effects.task-timeout must be positive");
        }
    }

    /** Retries and downstream tasks; an unreachable server waited for 2 min (the default). */
    public EffectProperties(int maxCalls, Duration backoff, Duration taskPollInterval, Duration taskTimeout) {
        this(maxCalls, backoff, taskPollInterval, taskTimeout, Duration.ofMinutes(2));
    }

    /** Retries only; downstream tasks at their defaults (1 s, 10 min), an unreachable server 2 min. */
    public EffectProperties(int maxCalls, Duration backoff) {
        this(maxCalls, backoff, Duration.ofSeconds(1), Duration.ofMinutes(10));
    }
}
