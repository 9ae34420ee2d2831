package dev.opledger.node.security;

import java.util.List;
import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The console's users ({@code opledger.console.users}), read from configuration: each with a
 * password in Spring Security's encoded form ({@code {bcrypt}$2a$…}) and its roles. An identity
 * provider (OIDC) can replace this list later without touching the views.
 */
@ConfigurationProperties("opledger.console")
record ConsoleUsersProperties(@DefaultValue List<User> users) {

    record User(String username, String password, Set<ConsoleRole> roles) {

        User {
            if (username == null || username.isBlank()) {
                throw new IllegalArgumentException("opledger.console.users[].username is required");
            }
            if (password == null || !password.startsWith("{")) {
                throw new IllegalArgumentException("opledger.console.users[" + username + "].password must be "
                        + "an encoded password such as {bcrypt}$2a$10$…, never plain text");
            }
            if (roles == null || roles.isEmpty()) {
                throw new IllegalArgumentException("opledger.console.users[" + username + "].roles: give SUPPORT "
                        + "or ADMIN");
            }
        }
    }
}
