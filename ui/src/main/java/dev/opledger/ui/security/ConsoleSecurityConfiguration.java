package dev.opledger.ui.security;

import com.vaadin.flow.spring.security.RequestUtil;
import com.vaadin.flow.spring.security.VaadinSecurityConfigurer;
import jakarta.servlet.DispatcherType;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

/**
 * The console's filter chain: everything the API chain ({@code /v1/**}, order 1) and the actuator
 * chain (order 2) leave. Vaadin's configurer sets up form login at {@link LoginView}, logout, the
 * request cache and navigation access control from the views' {@code @RolesAllowed} /
 * {@code @AnonymousAllowed}. Anonymous requests for anything but the login view and Vaadin's static
 * resources are sent to the login page.
 *
 * <p>CSRF protection is configured here, not by Vaadin's configurer: that one also exempts the
 * login form's POST, which lets another site sign a browser in to an account of its choosing
 * (login CSRF). Only Vaadin's internal requests are exempt, as they carry Vaadin's own token. The
 * login form sends Spring's token: the page's {@code _csrf} meta tags, which the form copies into
 * its POST.
 *
 * <p>Error dispatches are let through: this chain matches every path, {@code /error} included, so
 * without that a 401 or 403 sent by the actuator chain (or by CSRF protection) would be turned
 * into a redirect to the login page on its way to the error page.
 */
@Configuration(proxyBeanMethods = false)
class ConsoleSecurityConfiguration {

    /** After the API chain (1) and the actuator chain (2): this one matches every request. */
    static final int ORDER = 3;

    @Bean
    @Order(ORDER)
    SecurityFilterChain consoleFilterChain(HttpSecurity http, RequestUtil vaadinRequests) throws Exception {
        http.authorizeHttpRequests(requests -> requests.dispatcherTypeMatchers(DispatcherType.ERROR).permitAll());
        http.csrf(csrf -> csrf.ignoringRequestMatchers(vaadinRequests::isFrameworkInternalRequest));
        http.with(VaadinSecurityConfigurer.vaadin(), vaadin -> vaadin.loginView(LoginView.class)
                .enableCsrfConfiguration(false));
        return http.build();
    }
}
