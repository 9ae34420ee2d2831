package dev.opledger.attest.internal;

import dev.opledger.attest.AppAttestVerifier;
import dev.opledger.attest.AttestMode;
import dev.opledger.attest.AttestProperties;
import dev.opledger.attest.TrustRoots;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.env.Profiles;

/**
 * The verifier with Apple's roots and the configured extra ones. Outside the local and test
 * profiles a node refuses to start with {@code mode: off} or extra trust roots unless
 * {@code opledger.attest.allow-insecure=true}, and then warns at every start.
 */
@Configuration(proxyBeanMethods = false)
class AttestConfiguration {

    private static final Logger log = LoggerFactory.getLogger(AttestConfiguration.class);

    @Bean
    AppAttestVerifier appAttestVerifier(AttestProperties properties, Environment environment) {
        boolean developmentProfile = environment.acceptsProfiles(Profiles.of("local | test"));
        boolean insecure = properties.mode() == AttestMode.OFF || !properties.trustRoots().isEmpty();
        if (insecure && !developmentProfile) {
            String what = properties.mode() == AttestMode.OFF ? "opledger.attest.mode=off"
                    : "extra App Attest trust roots " + properties.trustRoots();
            if (!properties.allowInsecure()) {
                throw new InsecureAttestSettingsException("This node would run with " + what + " outside the local and test "
                        + "profiles: anyone could then create operations without a genuine app. Remove it, or set "
                        + "opledger.attest.allow-insecure=true if that is really meant.");
            }
            log.warn("INSECURE: App Attest runs with {} (opledger.attest.allow-insecure=true)", what);
        }
        if (properties.apps().isEmpty() && properties.mode() != AttestMode.OFF) {
            log.warn("No App Attest apps are configured (opledger.attest.apps): no device key can be registered");
        }
        return TrustRoots.verifier(properties.trustRoots());
    }
}
