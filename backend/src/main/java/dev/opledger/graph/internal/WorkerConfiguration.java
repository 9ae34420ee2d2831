package dev.opledger.graph.internal;

import dev.opledger.claim.LifecycleService;
import dev.opledger.graph.OperationExecutor;
import java.lang.management.ManagementFactory;
import java.util.UUID;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Starts this node's workers with the application and stops them with it, when the node has an
 * {@link OperationExecutor} ({@link GraphOperationExecutor}, running each operation's type) and
 * {@code opledger.worker.enabled} is true. They start with the context's lifecycle, after every
 * bean (the MCP servers a node starts itself included), and stop before any bean is destroyed.
 */
@Configuration(proxyBeanMethods = false)
class WorkerConfiguration {

    @Bean
    SmartLifecycle operationWorkers(WorkerProperties properties, LifecycleService lifecycle,
            ObjectProvider<OperationExecutor> executor) {
        String node = ManagementFactory.getRuntimeMXBean().getName() + "/" + UUID.randomUUID().toString().substring(0, 8);
        return new SmartLifecycle() {
            private OperationWorker worker;

            @Override
            public void start() {
                OperationExecutor available = executor.getIfAvailable();
                if (properties.enabled() && available != null) {
                    worker = new OperationWorker(node, lifecycle, available, properties);
                    worker.start();
                }
            }

            @Override
            public void stop() {
                if (worker != null) {
                    worker.stop();
                    worker = null;
                }
            }

            @Override
            public boolean isRunning() {
                return worker != null;
            }
        };
    }
}
