package dev.opledger.api;

import java.util.Map;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.HttpRequestHandler;
import org.springframework.web.servlet.handler.SimpleUrlHandlerMapping;

/**
 * Answers {@code /v1} paths that no controller maps with a 404 problem. Ordered right after the
 * controllers' mapping, which has already answered 405/415 for known paths; without it, the
 * console's catch-all route would answer API clients with an HTML page.
 */
@Configuration(proxyBeanMethods = false)
class UnknownRouteHandling {

    @Bean
    SimpleUrlHandlerMapping apiUnknownRouteMapping(ProblemResponseWriter problems) {
        HttpRequestHandler notFound = (request, response) -> problems.write(response, ApiProblem.of(
                ProblemType.NOT_FOUND, "there is no resource at " + request.getRequestURI(), null));
        var mapping = new SimpleUrlHandlerMapping(Map.of("/v1/**", notFound));
        mapping.setOrder(1);
        return mapping;
    }
}
