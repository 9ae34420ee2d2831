package dev.opledger.classification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.classification.internal.SecondNode;
import dev.opledger.mcp.ToolClient;
import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolRef;
import dev.opledger.testing.NodeIntegrationTest;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.DataSourceBuilder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Two nodes on one database: this test's node, and a second one made of its own connection pool,
 * class cache and listener. A class the second node has cached is served without reading the
 * database, and a change written on this node reaches the second node's answers within a second.
 */
@NodeIntegrationTest
class ToolClassCacheIT {

    private static final Supplier<Optional<ToolHints>> NO_HINTS = Optional::empty;
    private static final ToolHints IDEMPOTENT = new ToolHints(false, true, false, false);

    @Autowired
    ClassificationService classification;

    @Autowired
    ToolClassesProperties properties;

    @Autowired
    ObjectProvider<ToolClient> tools;

    @Autowired
    DataSourceProperties dataSourceProperties;

    @Autowired
    JdbcTemplate jdbc;

    private DataSource otherPool;
    private SecondNode other;
    private ClassificationService otherClassification;
    private ToolRef tool;

    @BeforeEach
    void startTheSecondNode() {
        otherPool = DataSourceBuilder.create().url(dataSourceProperties.determineUrl())
                .username(dataSourceProperties.determineUsername()).password(dataSourceProperties.determinePassword())
                .build();
        other = new SecondNode(otherPool);
        otherClassification = new ClassificationService(other.repository, properties, other.cache, tools);
        await().atMost(Duration.ofSeconds(5)).until(other::listening);
        tool = new ToolRef("cache-" + UUID.randomUUID(), "set_shipping_address");
    }

    @AfterEach
    void stopTheSecondNode() throws Exception {
        other.close();
        if (otherPool instanceof AutoCloseable pool) {
            pool.close();
        }
    }

    /** The first look records the class, and the record's own notification drops it again: the second look caches it. */
    private void cachedOnTheSecondNode() {
        long before = other.cache.generation();
        assertThat(otherClassification.classOf(tool, () -> Optional.of(IDEMPOTENT)).repeatClass())
                .isEqualTo(RepeatClass.IDEMPOTENT);
        await().atMost(Duration.ofSeconds(1)).until(() -> other.cache.generation() > before);
        otherClassification.classOf(tool, NO_HINTS);
        assertThat(other.cache.get(tool)).isNotNull();
    }

    @Test
    void aCachedClassIsServedWithoutReadingTheDatabase() {
        cachedOnTheSecondNode();

        // behind the registry's back: no notification, so the cache cannot know
        jdbc.update("UPDATE tool_classification SET repeat_class = 'NEVER_REPEAT' WHERE server = ? AND tool = ?",
                tool.server(), tool.tool());

        assertThat(otherClassification.classOf(tool, NO_HINTS).repeatClass()).isEqualTo(RepeatClass.IDEMPOTENT);
    }

    @Test
    void aChangeOnOneNodeIsFollowedByTheOtherWithinASecond() {
        cachedOnTheSecondNode();
        assertThat(classification.classOf(tool, NO_HINTS).repeatClass()).isEqualTo(RepeatClass.IDEMPOTENT);

        long changedAt = System.nanoTime();
        var admin = new ToolClass(tool.server(), tool.tool(), RepeatClass.NEVER_REPEAT, ClassSource.ADMIN, null,
                new RetryPolicy(1, Duration.ZERO, Duration.ofSeconds(2)), "the server applies it twice", 0);
        classification.record(admin, "admin");

        await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(10))
                .until(() -> otherClassification.classOf(tool, NO_HINTS).repeatClass() == RepeatClass.NEVER_REPEAT);
        long seenAfterMillis = (System.nanoTime() - changedAt) / 1_000_000;
        ToolClass seen = otherClassification.classOf(tool, NO_HINTS);
        assertThat(seen.source()).isEqualTo(ClassSource.ADMIN);
        assertThat(seen.retry()).isEqualTo(new RetryPolicy(1, Duration.ZERO, Duration.ofSeconds(2)));
        assertThat(seen.version()).isGreaterThan(0);
        // and this node, which wrote it, follows at once
        assertThat(classification.classOf(tool, NO_HINTS).repeatClass()).isEqualTo(RepeatClass.NEVER_REPEAT);
        System.out.println("ToolClassCacheIT: the second node followed the change after " + seenAfterMillis + " ms");
    }

    @Test
    void withoutItsListenerANodeReadsTheDatabaseAndStillFollows() {
        other.notifications.stop();
        assertThat(other.listening()).isFalse();
        otherClassification.classOf(tool, () -> Optional.of(IDEMPOTENT));

        jdbc.update("UPDATE tool_classification SET repeat_class = 'NEVER_REPEAT' WHERE server = ? AND tool = ?",
                tool.server(), tool.tool());

        assertThat(otherClassification.classOf(tool, NO_HINTS).repeatClass()).isEqualTo(RepeatClass.NEVER_REPEAT);
    }
}
