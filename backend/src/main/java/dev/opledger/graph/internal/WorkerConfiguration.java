package dev.opledger.graph.internal;

import dev.opledger.operation.OperationSpans;
import dev.opledger.claim.LifecycleService;
import dev.opledger.claim.OperationAccepted;
import dev.opledger.effect.RunWrites;
import dev.opledger.graph.OperationExecutor;
import java.lang.management.ManagementFactory;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * Starts this node's workers with the application and stops them with it, when the node has an
 * {@link OperationExecutor} ({@link GraphOperationExecutor}, running each operation's type) and
 * {@code opledger.worker.enabled} is true. They start with the context's lifecycle, after every
 * bean (the MCP servers a node starts itself included), and stop before any bean is destroyed.
 */
@Configuration(proxyBeanMethods = false)
class WorkerConfiguration {

    @Bean
    OperationWorkers operationWorkers(WorkerProperties properties, LifecycleService lifecycle,
            ObjectProvider<OperationExecutor> executor, OperationRuns runs, OperationSpans spans,
            ObjectProvider<RunWrites> runWrites) {
        String node = ManagementFactory.getRuntimeMXBean().getName() + "/" + UUID.randomUUID().toString().substring(0, 8);
        return new OperationWorkers(node, properties, lifecycle, executor, runs, spans, runWrites.getIfAvailable());
    }

    /** This node's worker as part of the application's lifecycle; nudged when work is accepted here. */
    static final class OperationWorkers implements SmartLifecycle {

        private final String node;
        private final WorkerProperties properties;
        private final LifecycleService lifecycle;
        private final ObjectProvider<OperationExecutor> executor;
        private final OperationRuns runs;
        private final OperationSpans spans;
        private final @Nullable RunWrites runWrites;
        private volatile @Nullable OperationWorker worker;

        OperationWorkers(String node, WorkerProperties properties, LifecycleService lifecycle,
                ObjectProvider<OperationExecutor> executor, OperationRuns runs, OperationSpans spans,
                @Nullable RunWrites runWrites) {
            this.spans = spans;
            this.runWrites = runWrites;
            this.node = node;
            this.runs = runs;
            this.properties = properties;
            this.lifecycle = lifecycle;
            this.executor = executor;
        }

        @Override
        public void start() {
            OperationExecutor available = executor.getIfAvailable();
            if (properties.enabled() && available != null) {
                var started = new OperationWorker(node, lifecycle, available, properties, runs, spans, runWrites);
                started.start();
                worker = started;
            }
        }

        @Override
        public void stop() {
            OperationWorker running = worker;
            if (running != null) {
                running.stop();
                worker = null;
            }
        }

        @Override
        public boolean isRunning() {
            return worker != null;
        }

        // After the commit: a worker that leased before it would not see the operation yet.
        @TransactionalEventListener(fallbackExecution = true)
        void onAccepted(OperationAccepted accepted) {
            OperationWorker running = worker;
            if (running != null) {
                running.nudge();
            }
        }
    }
}
