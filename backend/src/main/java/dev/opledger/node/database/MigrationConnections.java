package dev.opledger.node.database;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import liquibase.integration.spring.SpringLiquibase;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * Liquibase's connections at start without the pool's {@code socketTimeout}: that bound is sized
 * for the statements of a running node (seconds), while a migration may legitimately run for
 * minutes (an index built over a large table) and, cut off, would fail the start. Each connection
 * Liquibase takes gets no network timeout ({@link Connection#setNetworkTimeout}, 0); Hikari puts
 * the pool's back when the connection is returned. A database that hangs during the start makes
 * the start wait, which the deployment's startup probe sees; a running node is bounded.
 */
@Configuration(proxyBeanMethods = false)
class MigrationConnections {

    @Bean
    static BeanPostProcessor migrationsWithoutSocketTimeout() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessBeforeInitialization(Object bean, String beanName) {
                if (bean instanceof SpringLiquibase liquibase && liquibase.getDataSource() != null) {
                    liquibase.setDataSource(new Unbounded(liquibase.getDataSource()));
                }
                return bean;
            }
        };
    }

    private static final class Unbounded extends DelegatingDataSource {

        Unbounded(DataSource pool) {
            super(pool);
        }

        @Override
        public Connection getConnection() throws SQLException {
            return unbounded(super.getConnection());
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            return unbounded(super.getConnection(username, password));
        }

        private static Connection unbounded(Connection connection) throws SQLException {
            connection.setNetworkTimeout(Runnable::run, 0);
            return connection;
        }
    }
}
