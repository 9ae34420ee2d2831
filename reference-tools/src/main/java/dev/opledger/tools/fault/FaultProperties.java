package dev.opledger.tools.fault;

import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Standing faults by tool: {@code reference-tools.faults.send_message=drop-response},
 * {@code reference-tools.faults.capture_payment=delay:500, fail*1}. Keys are matched ignoring
 * case and punctuation ({@code send_message} binds as {@code sendmessage}); {@code [*]} means
 * every tool. The environment variables {@code REFERENCE_TOOLS_FAULTS_…} bind through
 * {@link EnvironmentFaultProperties}.
 */
@ConfigurationProperties("reference-tools")
record FaultProperties(Map<String, String> faults) {

    FaultProperties {
        faults = faults == null ? Map.of() : Map.copyOf(faults);
    }
}
