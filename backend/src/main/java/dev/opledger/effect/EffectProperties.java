package dev.opledger.effect;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Automatic retries of effects ({@code opledger.effects}), which follow the repeat class like any
 * repeat: a never-repeat tool is not retried after an unknown outcome. These are the defaults: a
 * tool's retry policy in the registry ({@code classification.RetryPolicy}) wins where it says more.
 *
 * @param maxCalls calls of one step in one run, the first included
 * @param backoff wait before the second call, doubled for each further one
 */
@ConfigurationProperties("opledger.effects")
public record EffectProperties(@DefaultValue("3") int maxCalls, @DefaultValue("200ms") Duration backoff) {

    public EffectProperties {
        if (maxCalls < 1) {
            throw new IllegalArgumentException("opledger.effects.max-calls must be at least 1");
        }
    }
}
