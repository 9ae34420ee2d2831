package dev.opledger.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.testing.NodeIntegrationTest;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.stereotype.Repository;

/**
 * The node's repositories are called directly, not through Spring's exception-translation proxy:
 * they are JdbcClient/JdbcTemplate statements that translate SQL errors themselves, and the proxy's
 * reflective call was on every statement of the checkout's path (issue 13, docs/benchmarks.md
 * "the repositories' proxies"). A repository that gains {@code @Transactional} would be proxied
 * again, for a reason: this test then names it.
 */
@NodeIntegrationTest
class RepositoryProxiesIT {

    @Autowired
    ApplicationContext context;

    @Test
    void noRepositoryOfTheNodeIsBehindAProxy() {
        Map<String, Object> repositories = context.getBeansWithAnnotation(Repository.class);

        assertThat(repositories).as("the node's @Repository beans").hasSizeGreaterThanOrEqualTo(16);
        repositories.forEach((name, bean) -> assertThat(AopUtils.isAopProxy(bean))
                .as("%s (%s) is a proxy", name, bean.getClass().getName()).isFalse());
    }
}
