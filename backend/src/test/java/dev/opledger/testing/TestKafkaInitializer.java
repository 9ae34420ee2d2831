package dev.opledger.testing;

import java.util.Map;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * Points a test's application context at {@link TestKafka#shared()} and turns the relay on
 * (the test profile has it off), with a short election lease so takeovers take seconds.
 */
public class TestKafkaInitializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("opledgerTestKafka", Map.of(
                "spring.kafka.bootstrap-servers", TestKafka.shared().bootstrapServers(),
                "opledger.events.enabled", "true",
                "opledger.events.poll-interval", "50ms",
                "opledger.events.relay-lease", "2s")));
    }
}
