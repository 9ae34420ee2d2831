package dev.opledger.api;

import org.apache.catalina.Host;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.web.WebProperties;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;

import org.springframework.boot.webmvc.autoconfigure.error.BasicErrorController;
import org.springframework.boot.webmvc.autoconfigure.error.ErrorViewResolver;
import org.springframework.boot.webmvc.error.ErrorAttributes;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Problems for the API's requests that fail outside Spring MVC: Boot's {@code /error} (in place
 * of its {@code BasicErrorController}) and Tomcat's error report (in place of its
 * {@code ErrorReportValve}).
 */
@Configuration(proxyBeanMethods = false)
class ApiErrorHandling {

    @Bean
    BasicErrorController apiErrorController(ErrorAttributes attributes, WebProperties web,
            ObjectProvider<ErrorViewResolver> resolvers, ServerErrorProblems problems, ProblemResponseWriter writer) {
        return new ApiErrorController(attributes, web.getError(), resolvers.orderedStream().toList(), problems,
                writer);
    }

    /**
     * Unordered, so after Boot's own Tomcat customizer, which adds a stock {@code ErrorReportValve}
     * to the host: that one is replaced, and the host is told the class so it adds no other.
     */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemErrorReport(ServerErrorProblems problems) {
        return factory -> factory.addContextCustomizers(context -> {
            Host host = (Host) context.getParent();
            for (Valve valve : host.getPipeline().getValves()) {
                if (valve instanceof ErrorReportValve) {
                    host.getPipeline().removeValve(valve);
                }
            }
            host.getPipeline().addValve(new ProblemErrorReportValve(problems));
            if (host instanceof StandardHost standard) {
                standard.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
            }
        });
    }
}
