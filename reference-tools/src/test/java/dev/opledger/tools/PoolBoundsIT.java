package dev.opledger.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.opledger.testing.TestDatabase;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * On a pool of its own (the executable jar, {@code ReferenceTools.start(port, url, …)}), the
 * server's connections carry PgJDBC's bounds from {@code reference-tools.yaml}: a hung database
 * fails a tool call after the socket timeout instead of holding it until the database answers.
 */
class PoolBoundsIT {

    @Test
    void itsOwnPoolsConnectionsHaveASocketTimeoutAndBoundedConnectAndLogin() throws Exception {
        var database = TestDatabase.shared();
        try (var context = ReferenceToolsApplication.application().run(
                "--server.port=0",
                "--spring.datasource.url=" + database.url(),
                "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password())) {
            DataSource dataSource = context.getBean(DataSource.class);

            var pool = (HikariDataSource) dataSource;
            assertThat(pool.getDataSourceProperties())
                    .containsEntry("connectTimeout", "5")
                    .containsEntry("loginTimeout", "5")
                    .containsEntry("tcpKeepAlive", "true");
            try (var connection = dataSource.getConnection()) {
                // what PgJDBC made of socketTimeout, on the connection a tool call gets
                assertThat(connection.getNetworkTimeout()).isEqualTo((int) TimeUnit.SECONDS.toMillis(15));
            }
        }
    }
}
