package dev.opledger.api;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.Ordered;

/**
 * Registers {@link DirectOperationRoutes} for the operations' paths, last among the filters: after
 * Spring Security's and the request observation's, just before the servlets.
 * {@code opledger.api.direct-routes=false} leaves every request to Spring MVC (the benchmark's
 * baseline; the answers are the same). The controller is looked up at the first request: filters
 * are made with the web server, before the persistence its façades need.
 */
@Configuration(proxyBeanMethods = false)
class DirectRoutesConfiguration {

    @Bean
    FilterRegistrationBean<DirectOperationRoutes> directOperationRoutes(@Lazy OperationController operations,
            ApiExceptionHandler failures, EntityWriter entities, ApiProperties properties) {
        var registration = new FilterRegistrationBean<>(new DirectOperationRoutes(operations, failures, entities));
        registration.addUrlPatterns(DirectOperationRoutes.SUBMIT, DirectOperationRoutes.SUBMIT + "/*");
        registration.setOrder(Ordered.LOWEST_PRECEDENCE);
        registration.setEnabled(properties.directRoutes());
        return registration;
    }
}
