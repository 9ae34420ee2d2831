package dev.opledger.classification.internal;

import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import tools.jackson.databind.json.JsonMapper;

/** The registry's parts of another node on the same database: its own connections, cache and listener. */
public final class SecondNode implements AutoCloseable {

    public final ClassificationRepository repository;
    public final ToolClassCache cache = new ToolClassCache();
    public final RegistryNotifications notifications;

    public SecondNode(DataSource dataSource) {
        repository = new ClassificationRepository(new JdbcTemplate(dataSource), new DataSourceTransactionManager(dataSource),
                JsonMapper.builder().build());
        notifications = new RegistryNotifications(dataSource, cache);
        notifications.start();
    }

    public boolean listening() {
        return notifications.listening();
    }

    @Override
    public void close() {
        notifications.stop();
    }
}
