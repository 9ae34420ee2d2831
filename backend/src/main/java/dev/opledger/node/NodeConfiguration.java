package dev.opledger.node;

import java.time.Clock;
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
}
