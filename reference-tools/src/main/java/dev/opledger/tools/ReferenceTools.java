package dev.opledger.tools;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.logging.LoggingApplicationListener;

/**
 * Starts a reference tool server inside another application: a child Spring application of its
 * own, on its own port, whose beans never mix with the caller's. It leaves the caller's logging
 * as it is. Close the returned server when done (a JVM shutdown closes it too).
 *
 * <pre>{@code
 * try (ReferenceToolsServer tools = ReferenceTools.start(0, dataSource)) {
 *     URI mcp = tools.url();   // http://127.0.0.1:<port>/mcp
 *     ...
 *     tools.effects().count("send_message");
 * }
 * }</pre>
 */
public final class ReferenceTools {

    private ReferenceTools() {
    }

    /**
     * On the caller's pool. The server's tables go to the schema {@code reference_tools} of that
     * database, created if missing; the pool is not closed with the server.
     *
     * @param port 0 for any free port
     */
    public static ReferenceToolsServer start(int port, DataSource dataSource) {
        return start(port, dataSource, Map.of());
    }

    /**
     * @param properties further settings, e.g. {@code reference-tools.faults.send_message=drop-response}
     */
    public static ReferenceToolsServer start(int port, DataSource dataSource, Map<String, String> properties) {
        return run(port, dataSource, properties);
    }

    /** On a pool of its own to this PostgreSQL database. */
    public static ReferenceToolsServer start(int port, String jdbcUrl, String username, String password) {
        return start(port, jdbcUrl, username, password, Map.of());
    }

    public static ReferenceToolsServer start(int port, String jdbcUrl, String username, String password,
            Map<String, String> properties) {
        var settings = new LinkedHashMap<>(properties);
        settings.put("spring.datasource.url", jdbcUrl);
        settings.put("spring.datasource.username", username);
        settings.put("spring.datasource.password", password);
        return run(port, null, settings);
    }

    private static ReferenceToolsServer run(int port, @Nullable DataSource dataSource, Map<String, String> properties) {
        SpringApplication application = ReferenceToolsApplication.application();
        application.setBannerMode(Banner.Mode.OFF);
        application.setListeners(application.getListeners().stream()
                .filter(listener -> !(listener instanceof LoggingApplicationListener))
                .toList());
        if (dataSource != null) {
            // a singleton, not a bean definition: the child context must not close the caller's pool
            application.addInitializers(
                    context -> context.getBeanFactory().registerSingleton("dataSource", dataSource));
        }
        List<String> arguments = new ArrayList<>();
        // arguments outrank the caller's system properties and environment (a node's own
        // spring.config.name or SERVER_PORT must not reach this server)
        arguments.add("--spring.config.name=" + ReferenceToolsApplication.CONFIG_NAME);
        arguments.add("--server.port=" + port);
        properties.forEach((name, value) -> arguments.add("--" + name + "=" + value));
        return new ReferenceToolsServer(application.run(arguments.toArray(String[]::new)));
    }
}
