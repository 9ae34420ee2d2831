package dev.opledger.attest;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * App Attest settings ({@code opledger.attest}), part of the documented interface: an integrator's
 * test device works against a local node by setting them.
 *
 * @param apps accepted apps, {@code <teamId>.<bundleId>}
 * @param environment which aaguid new keys must carry
 * @param trustRoots extra PEM roots (file path or {@code classpath:}) trusted besides Apple's, for
 *     attestations and receipts: development and tests only
 * @param challengeTtl how long a challenge may be used
 * @param mode whether operations need an assertion
 * @param allowInsecure lets a node outside the local and test profiles start with {@code mode: off}
 *     or extra trust roots (it then warns at every start)
 */
@ConfigurationProperties("opledger.attest")
public record AttestProperties(
        @DefaultValue List<String> apps,
        @DefaultValue("production") AttestEnvironment environment,
        @DefaultValue List<String> trustRoots,
        @DefaultValue("5m") Duration challengeTtl,
        @DefaultValue("required") AttestMode mode,
        @DefaultValue("false") boolean allowInsecure) {

    public AttestProperties {
        apps.forEach(AppId::new); // a malformed app id fails start-up with its own message
        if (challengeTtl.isNegative() || challengeTtl.isZero() || challengeTtl.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException("opledger.attest.challenge-ttl must be between 1 ms and 1 hour");
        }
    }
}
