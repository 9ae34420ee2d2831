package dev.opledger.node.database;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.commons.logging.Log;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.StringUtils;

/**
 * Gives a node a database before anything connects to one, in this order:
 * {@code spring.datasource.url}; else {@code OPLEDGER_DB_URL} (with {@code OPLEDGER_DB_USER} and
 * {@code OPLEDGER_DB_PASSWORD}); else the PostgreSQL on {@code localhost:5432} with the
 * {@code opledger} database created if missing; else an embedded PostgreSQL with its data in
 * {@code ~/.opledger/postgres}. {@code opledger.database.locate=false} turns the search off
 * (tests set their own database).
 */
class DatabaseEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

    private final Log log;

    DatabaseEnvironmentPostProcessor(DeferredLogFactory logs) {
        this.log = logs.getLog(DatabaseEnvironmentPostProcessor.class);
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE; // after application.yaml and profiles are loaded
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (StringUtils.hasText(environment.getProperty("spring.datasource.url"))
                || !environment.getProperty("opledger.database.locate", Boolean.class, true)) {
            return;
        }
        Path embeddedData = Path.of(environment.getProperty("opledger.database.embedded-directory",
                System.getProperty("user.home") + "/.opledger/postgres"));
        LocatedDatabase located = locate(environment, embeddedData);
        Map<String, Object> datasource = new HashMap<>();
        datasource.put("spring.datasource.url", located.url());
        datasource.put("spring.datasource.username", located.username());
        datasource.put("spring.datasource.password", located.password());
        environment.getPropertySources().addFirst(new MapPropertySource("opledgerLocatedDatabase", datasource));
        // without the query string: a URL may carry a password there
        log.info("Database: " + located.url().replaceFirst("\\?.*", "") + " (" + switch (located.source()) {
            case CONFIGURED -> "from OPLEDGER_DB_URL";
            case LOCAL_SERVER -> "the local PostgreSQL server";
            case EMBEDDED -> "embedded PostgreSQL, data kept in " + embeddedData;
        } + ")");
    }

    private static LocatedDatabase locate(ConfigurableEnvironment environment, Path embeddedData) {
        String url = environment.getProperty("OPLEDGER_DB_URL");
        String user = environment.getProperty("OPLEDGER_DB_USER", "postgres");
        String password = environment.getProperty("OPLEDGER_DB_PASSWORD", "");
        if (StringUtils.hasText(url)) {
            return new LocatedDatabase(url, user, password, LocatedDatabase.Source.CONFIGURED);
        }
        var server = new LocalServer(
                environment.getProperty("opledger.database.local-host", "localhost"),
                environment.getProperty("opledger.database.local-port", Integer.class, 5432),
                user, password);
        String name = environment.getProperty("opledger.database.name", "opledger");
        return DatabaseLocator.locate(server, name, embeddedData);
    }
}
