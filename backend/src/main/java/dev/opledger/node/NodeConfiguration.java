package dev.opledger.node;

import java.time.Clock;
import dev.opledger.operation.OperationSpans;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

/** What every stage may use: the clock (injectable, so tests can move time) and scheduling. */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
class NodeConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    /** The operationId on spans and the trace context on MCP calls and Kafka records (docs/tracing.md). */
    @Bean
    OperationSpans operationSpans(ObjectProvider<Tracer> tracer, ObjectProvider<Propagator> propagator) {
        return new OperationSpans(tracer.getIfAvailable(() -> Tracer.NOOP), propagator.getIfAvailable(() -> Propagator.NOOP));
    }
}
