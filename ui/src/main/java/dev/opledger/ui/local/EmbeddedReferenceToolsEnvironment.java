package dev.opledger.ui.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * With {@code opledger.reference-tools.embedded=true}, registers the embedded server as MCP
 * server {@value #SERVER} before any bean reads the MCP settings: its URL follows from
 * {@code opledger.reference-tools.port} (default {@value #DEFAULT_PORT}; 0 picks a free port now,
 * so the URL is known before the server starts). A URL configured for that server as well is a
 * contradiction and stops the start.
 */
class EmbeddedReferenceToolsEnvironment implements EnvironmentPostProcessor, Ordered {

    static final String EMBEDDED = "opledger.reference-tools.embedded";
    static final String PORT = "opledger.reference-tools.port";
    static final String SERVER = "reference";
    static final int DEFAULT_PORT = 8091;
    private static final String URL = "opledger.mcp.servers." + SERVER + ".url";

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE; // after application.yaml and the profiles' files
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (!environment.getProperty(EMBEDDED, Boolean.class, false)) {
            return;
        }
        if (environment.containsProperty(URL)) {
            throw new IllegalStateException(URL + " is set, and " + EMBEDDED + " is true: to call a reference-tools "
                    + "server running elsewhere, also set " + EMBEDDED + "=false");
        }
        int port = environment.getProperty(PORT, Integer.class, DEFAULT_PORT);
        if (port == 0) {
            port = freePort();
        }
        environment.getPropertySources().addFirst(new MapPropertySource("opledgerEmbeddedReferenceTools",
                Map.of(PORT, port, URL, "http://127.0.0.1:" + port + "/mcp")));
    }

    private static int freePort() {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port for the embedded reference-tools", e);
        }
    }
}
