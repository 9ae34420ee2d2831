package dev.opledger.tools.database;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import liquibase.integration.spring.SpringLiquibase;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanInitializationException;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Creates the schema {@value #NAME} before Liquibase runs: every table of the server lives there,
 * Liquibase's own bookkeeping too ({@code spring.liquibase.default-schema} and
 * {@code liquibase-schema}), so the server can share a database with a node without touching its
 * tables. Liquibase does not create a missing schema itself.
 */
public final class OwnSchema implements BeanPostProcessor {

    /** The PostgreSQL schema of every table of the server. */
    public static final String NAME = "reference_tools";

    OwnSchema() {
    }

    @Override
    public Object postProcessBeforeInitialization(Object bean, String beanName) throws BeansException {
        if (bean instanceof SpringLiquibase liquibase) {
            create(liquibase.getDataSource());
        }
        return bean;
    }

    private static void create(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA IF NOT EXISTS " + NAME);
        } catch (SQLException e) {
            throw new BeanInitializationException("cannot create the schema " + NAME, e);
        }
    }
}
