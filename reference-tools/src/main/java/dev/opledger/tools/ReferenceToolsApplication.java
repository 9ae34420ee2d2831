package dev.opledger.tools;

import dev.opledger.tools.database.OwnSchema;
import dev.opledger.tools.effect.EffectLog;
import dev.opledger.tools.fault.Faults;
import dev.opledger.tools.inventory.InventoryTools;
import dev.opledger.tools.mcp.McpEndpoint;
import dev.opledger.tools.message.MessageTools;
import dev.opledger.tools.payment.PaymentTools;
import dev.opledger.tools.points.PointsTools;
import dev.opledger.tools.shipping.ShippingTools;
import dev.opledger.tools.task.TaskTools;
import dev.opledger.tools.wrap.WrapTools;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.context.ConfigurationPropertiesAutoConfiguration;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcClientAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.liquibase.autoconfigure.LiquibaseAutoConfiguration;
import org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * The reference tool server as a Spring Boot application (Tomcat, JDBC, Liquibase) serving MCP at
 * {@value McpEndpoint#ENDPOINT}.
 *
 * <p>It names its auto-configurations and parts instead of scanning: started inside a node, its
 * class path holds the node's whole stack (security, JPA, Vaadin, …), none of which belongs here;
 * and it is no {@code @Configuration}, so a node scanning {@code dev.opledger} never picks it up.
 * Its settings are {@code reference-tools.yaml} ({@code spring.config.name}), never a node's
 * {@code application.yaml}.
 */
@ImportAutoConfiguration({
        PropertyPlaceholderAutoConfiguration.class,
        ConfigurationPropertiesAutoConfiguration.class,
        TomcatServletWebServerAutoConfiguration.class,
        DataSourceAutoConfiguration.class,
        DataSourceTransactionManagerAutoConfiguration.class,
        TransactionAutoConfiguration.class,
        JdbcTemplateAutoConfiguration.class,
        JdbcClientAutoConfiguration.class,
        LiquibaseAutoConfiguration.class})
@Import({
        OwnSchema.class,
        EffectLog.class,
        Faults.class,
        McpEndpoint.class,
        InventoryTools.class,
        PaymentTools.class,
        MessageTools.class,
        PointsTools.class,
        ShippingTools.class,
        TaskTools.class,
        WrapTools.class})
public final class ReferenceToolsApplication {

    /** The name of the settings file ({@code reference-tools.yaml}). */
    public static final String CONFIG_NAME = "reference-tools";

    private ReferenceToolsApplication() {
    }

    public static void main(String[] args) {
        application().run(args);
    }

    static SpringApplication application() {
        var application = new SpringApplication(ReferenceToolsApplication.class);
        application.setDefaultProperties(Map.of("spring.config.name", CONFIG_NAME));
        return application;
    }
}
