package dev.opledger.testing;

import dev.opledger.OpledgerApplication;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.ContextConfiguration;

/**
 * {@link NodeIntegrationTest} with the relay on, publishing to the test JVM's Kafka broker
 * ({@link TestKafka}). Use it as it is (no further properties), so every class shares one
 * context and the JVM has one relay of its own, which a test may stop and start.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(classes = OpledgerApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
@ContextConfiguration(initializers = {TestDatabaseInitializer.class, TestKafkaInitializer.class})
public @interface EventsIntegrationTest {
}
