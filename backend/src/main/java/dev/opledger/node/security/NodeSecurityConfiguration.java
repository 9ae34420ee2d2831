package dev.opledger.node.security;

import dev.opledger.audit.AuditService;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.access.hierarchicalroles.RoleHierarchy;
import org.springframework.security.access.hierarchicalroles.RoleHierarchyImpl;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.dao.DaoAuthenticationProvider;
import org.springframework.security.config.annotation.method.configuration.EnableMethodSecurity;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Node-wide security: the console's users from configuration, their sign-ins throttled
 * ({@link SignInThrottle}), ADMIN including SUPPORT, method security for the façades, and the
 * actuator (health open for probes, the rest ADMIN only).
 */
@Configuration(proxyBeanMethods = false)
@EnableMethodSecurity
class NodeSecurityConfiguration {

    private static final Logger log = LoggerFactory.getLogger(NodeSecurityConfiguration.class);

    @Bean
    static RoleHierarchy roleHierarchy() {
        return RoleHierarchyImpl.withDefaultRolePrefix().role(ConsoleRole.ADMIN.name())
                .implies(ConsoleRole.SUPPORT.name()).build();
    }

    @Bean
    PasswordEncoder passwordEncoder() {
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }

    /**
     * The console's users. Not a bean: Spring Security would only warn at every start that it
     * leaves a UserDetailsService bean unused, since {@link #consoleSignIn} is the provider.
     */
    private static UserDetailsService consoleUsers(ConsoleUsersProperties properties) {
        if (properties.users().isEmpty()) {
            log.warn("No console users are configured (opledger.console.users): nobody can sign in to the console");
        }
        return new InMemoryUserDetailsManager(properties.users().stream()
                .map(user -> User.withUsername(user.username())
                        .password(user.password())
                        .authorities(user.roles().stream().map(ConsoleRole::authority).toArray(String[]::new))
                        .build())
                .toList());
    }

    @Bean
    SignInThrottle signInThrottle(SignInThrottleProperties settings, Clock clock) {
        return new SignInThrottle(settings, clock);
    }

    /** The only authentication provider for usernames and passwords: the console's users, throttled. */
    @Bean
    AuthenticationProvider consoleSignIn(ConsoleUsersProperties users, PasswordEncoder passwordEncoder,
            SignInThrottle throttle, AuditService audit) {
        var passwords = new DaoAuthenticationProvider(consoleUsers(users));
        passwords.setPasswordEncoder(passwordEncoder);
        return new ThrottledSignIn(passwords, throttle, audit);
    }

    @Bean
    @Order(2)
    SecurityFilterChain actuatorFilterChain(HttpSecurity http) throws Exception {
        http.securityMatcher(EndpointRequest.toAnyEndpoint())
                .authorizeHttpRequests(requests -> requests
                        .requestMatchers(EndpointRequest.to(HealthEndpoint.class)).permitAll()
                        .anyRequest().hasRole(ConsoleRole.ADMIN.name()))
                .httpBasic(basic -> { })
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS));
        return http.build();
    }
}
