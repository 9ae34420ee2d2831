package dev.opledger.tools.fault;

import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Standing faults from environment variables in the form the README documents, beside
 * {@code REFERENCE_TOOLS_PORT}: {@code REFERENCE_TOOLS_FAULTS_SEND_MESSAGE=drop-response*1}.
 * Spring reads {@code REFERENCE_TOOLS_FAULTS_…} as {@code reference.tools.faults.…}, which
 * {@link FaultProperties} ({@code reference-tools}, whose canonical variables are
 * {@code REFERENCETOOLS_FAULTS_…}) never sees; so this prefix binds them.
 */
@ConfigurationProperties("reference.tools")
record EnvironmentFaultProperties(Map<String, String> faults) {

    EnvironmentFaultProperties {
        faults = faults == null ? Map.of() : Map.copyOf(faults);
    }
}
