package dev.opledger.testing;

import java.util.Map;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;

/** Points a test's application context at {@link TestDatabase#shared()}. */
public class TestDatabaseInitializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        var database = TestDatabase.shared();
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("opledgerTestDatabase", Map.of(
                "spring.datasource.url", database.url(),
                "spring.datasource.username", database.username(),
                "spring.datasource.password", database.password())));
    }
}
