package dev.opledger.node.database;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import liquibase.integration.spring.SpringLiquibase;
import org.junit.jupiter.api.Test;

/** Liquibase's connections at start carry no socket timeout (a migration may run for minutes). */
class MigrationConnectionsTest {

    @Test
    void liquibaseGetsItsConnectionsWithoutANetworkTimeout() throws Exception {
        List<Integer> timeoutsSet = new ArrayList<>();
        Connection connection = proxy(Connection.class, (method, arguments) -> {
            if (method.equals("setNetworkTimeout")) {
                timeoutsSet.add((Integer) arguments[1]);
            }
            return null;
        });
        DataSource pool = proxy(DataSource.class, (method, arguments) -> method.equals("getConnection")
                ? connection : null);
        var liquibase = new SpringLiquibase();
        liquibase.setDataSource(pool);

        Object processed = MigrationConnections.migrationsWithoutSocketTimeout()
                .postProcessBeforeInitialization(liquibase, "liquibase");
        ((SpringLiquibase) processed).getDataSource().getConnection();

        assertThat(timeoutsSet).containsExactly(0);
    }

    private interface Answer {
        Object answer(String method, Object[] arguments);
    }

    private static <T> T proxy(Class<T> type, Answer answer) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (self, method, arguments) -> answer.answer(method.getName(), arguments)));
    }
}
