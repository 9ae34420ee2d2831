package dev.opledger.ui.local;

import dev.opledger.tools.ReferenceTools;
import dev.opledger.tools.ReferenceToolsServer;
import java.util.Map;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Starts reference-tools inside the node on the node's database (its tables in the schema
 * {@code reference_tools}) when {@code opledger.reference-tools.embedded=true}. It is a bean, so
 * it is up before the workers start (they start with the context's lifecycle, after every bean)
 * and stops after they stopped. {@link EmbeddedReferenceToolsEnvironment} has registered its URL.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(EmbeddedReferenceToolsEnvironment.EMBEDDED)
class EmbeddedReferenceToolsConfiguration {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedReferenceToolsConfiguration.class);

    /**
     * The child application sees this JVM's {@code spring.factories} too: it must not look for a
     * database of its own (it gets the node's pool) nor embed reference-tools in itself.
     */
    private static final Map<String, String> CHILD_SETTINGS = Map.of(
            "opledger.database.locate", "false",
            EmbeddedReferenceToolsEnvironment.EMBEDDED, "false");

    @Bean(destroyMethod = "close")
    ReferenceToolsServer embeddedReferenceTools(DataSource dataSource,
            @Value("${" + EmbeddedReferenceToolsEnvironment.PORT + "}") int port) {
        ReferenceToolsServer server;
        try {
            server = ReferenceTools.start(port, dataSource, CHILD_SETTINGS);
        } catch (RuntimeException e) {
            throw new IllegalStateException("reference-tools could not start inside the node on port " + port
                    + " (is the port in use?): set " + EmbeddedReferenceToolsEnvironment.PORT + " to another port (0 for "
                    + "any), or set " + EmbeddedReferenceToolsEnvironment.EMBEDDED + "=false and "
                    + "opledger.mcp.servers.reference.url to use a server running elsewhere", e);
        }
        log.info("reference-tools runs inside this node at {} (MCP server '{}')", server.url(),
                EmbeddedReferenceToolsEnvironment.SERVER);
        return server;
    }
}
