package dev.opledger.classification.internal;

import dev.opledger.notification.DatabaseNotifications;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import tools.jackson.databind.json.JsonMapper;

/** The registry's parts of another node on the same database: its own connections, cache and listener. */
public final class SecondNode implements AutoCloseable {

    public final ClassificationRepository repository;
    public final ToolClassCache cache = new ToolClassCache();
    public final DatabaseNotifications notifications;
    private final RegistryNotifications registry;

    public SecondNode(DataSource dataSource) {
        repository = new ClassificationRepository(new JdbcTemplate(dataSource), new DataSourceTransactionManager(dataSource),
                JsonMapper.builder().build());
        registry = new RegistryNotifications(cache);
        notifications = new DatabaseNotifications(dataSource, List.of(registry));
        notifications.start();
    }

    public boolean listening() {
        return registry.listening();
    }

    @Override
    public void close() {
        notifications.stop();
    }
}
