package dev.opledger.node.security;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.security.web.firewall.StrictHttpFirewall;

/**
 * Spring Security's request firewall and observations, tuned for the claim's hot path.
 *
 * <p>The firewall keeps {@link StrictHttpFirewall}'s rules; only the check that header and
 * parameter names and values hold assigned, non-control characters runs as a loop over code
 * points instead of the default regular expression, which the claim profile showed on every
 * header read. Header values may hold a horizontal tab as RFC 9110's field-value does, so that
 * {@code Authorization: Bearer<TAB>token} reaches the token check and gets its 401 rather than
 * a firewall 400 (CR, LF and NUL stay refused, by Tomcat before this). Security's per-filter
 * observations are off; {@code http.server.requests} still times every request.
 */
@Configuration(proxyBeanMethods = false)
class HttpFirewallConfiguration {

    @Bean
    HttpFirewall httpFirewall() {
        var firewall = new StrictHttpFirewall();
        firewall.setAllowedHeaderNames(HttpFirewallConfiguration::assignedAndNotControl);
        firewall.setAllowedHeaderValues(HttpFirewallConfiguration::fieldValue);
        firewall.setAllowedParameterNames(HttpFirewallConfiguration::assignedAndNotControl);
        firewall.setAllowedParameterValues(HttpFirewallConfiguration::assignedAndNotControl);
        return firewall;
    }

    @Bean
    SecurityObservationSettings securityObservationSettings() {
        return SecurityObservationSettings.noObservations();
    }

    /** {@link #assignedAndNotControl} with HTAB allowed, as in RFC 9110's {@code field-content}. */
    static boolean fieldValue(String value) {
        return assignedAndNotControl(value.indexOf('\t') < 0 ? value : value.replace('\t', ' '));
    }

    /** The same test as StrictHttpFirewall's {@code [\p{IsAssigned}&&[^\p{IsControl}]]*}. */
    static boolean assignedAndNotControl(String value) {
        for (int i = 0; i < value.length(); ) {
            int codePoint = value.codePointAt(i);
            if (!Character.isDefined(codePoint) || Character.isISOControl(codePoint)) {
                return false;
            }
            i += Character.charCount(codePoint);
        }
        return true;
    }
}
