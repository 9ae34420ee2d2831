package dev.opledger.tools.fault;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.ConfigurationPropertiesAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Standing faults from environment variables, bound by Spring as the server binds them: the
 * variables stand in for the process environment under its own name, so Spring reads them with
 * its environment-variable rules.
 */
class FaultSettingsTest {

    private static ApplicationContextRunner withEnvironment(Map<String, Object> variables) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(ConfigurationPropertiesAutoConfiguration.class))
                .withUserConfiguration(Faults.class)
                .withInitializer(context -> context.getEnvironment().getPropertySources().replace(
                        StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                                variables)));
    }

    /** Regression: the README's REFERENCE_TOOLS_FAULTS_SEND_MESSAGE bound to nothing. */
    @Test
    void theDocumentedEnvironmentVariableSetsAToolsFault() {
        withEnvironment(Map.of("REFERENCE_TOOLS_FAULTS_SEND_MESSAGE", "fail", "REFERENCE_TOOLS_FAULTS_GET_POINTS",
                "delay:300, drop-response")).run(context -> {
                    Faults faults = context.getBean(Faults.class);

                    assertThat(faults.planFor("send_message", null).fail()).isTrue();
                    assertThat(faults.planFor("get_points", null).dropResponse()).isTrue();
                    assertThat(faults.planFor("capture_payment", null)).isEqualTo(FaultPlan.NONE);
                });
    }

    @Test
    void springsCanonicalFormWorksToo() {
        withEnvironment(Map.of("REFERENCETOOLS_FAULTS_SEND_MESSAGE", "fail")).run(context ->
                assertThat(context.getBean(Faults.class).planFor("send_message", null).fail()).isTrue());
    }

    @Test
    void faultsSetInBothFormsAddUp() {
        withEnvironment(Map.of("REFERENCE_TOOLS_FAULTS_SEND_MESSAGE", "delay:100",
                "REFERENCETOOLS_FAULTS_SEND_MESSAGE", "delay:200")).run(context ->
                        assertThat(context.getBean(Faults.class).planFor("send_message", null))
                                .isEqualTo(new FaultPlan(Duration.ofMillis(300), false, false)));
    }
}
