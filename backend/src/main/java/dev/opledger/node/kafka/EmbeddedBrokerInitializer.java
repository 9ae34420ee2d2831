package dev.opledger.node.kafka;

import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.StringUtils;

/**
 * Starts an {@link EmbeddedBroker} for a node with {@code opledger.events.enabled} (the default)
 * and {@code opledger.events.embedded-broker} (the local profile's default) but no
 * {@code spring.kafka.bootstrap-servers}, and points the node at it. It runs before any bean
 * exists, after logging is set up; the broker is a bean of the context, destroyed after every
 * other bean (the relay stops before), also when the context fails to start.
 */
class EmbeddedBrokerInitializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    static final String ENABLED = "opledger.events.enabled";
    static final String EMBEDDED = "opledger.events.embedded-broker";
    static final String BOOTSTRAP_SERVERS = "spring.kafka.bootstrap-servers";
    private static final String BEAN = "opledgerEmbeddedKafkaBroker";
    private static final Logger log = LoggerFactory.getLogger(EmbeddedBrokerInitializer.class);

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        ConfigurableEnvironment environment = context.getEnvironment();
        if (!environment.getProperty(ENABLED, Boolean.class, true)
                || !environment.getProperty(EMBEDDED, Boolean.class, false)
                || StringUtils.hasText(environment.getProperty(BOOTSTRAP_SERVERS))) {
            return;
        }
        long started = System.nanoTime();
        EmbeddedBroker broker = EmbeddedBroker.start();
        environment.getPropertySources().addFirst(new MapPropertySource("opledgerEmbeddedKafka",
                Map.of(BOOTSTRAP_SERVERS, broker.bootstrapServers())));
        var beans = context.getBeanFactory();
        beans.registerSingleton(BEAN, broker);
        if (beans instanceof DefaultSingletonBeanRegistry registry) {
            registry.registerDisposableBean(BEAN, broker::close);
        }
        log.info("Kafka: an embedded broker at {}, started in {} ms; its events last as long as this node "
                + "(set {} to use a cluster)", broker.bootstrapServers(), (System.nanoTime() - started) / 1_000_000,
                BOOTSTRAP_SERVERS);
    }
}
