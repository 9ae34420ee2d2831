package dev.opledger.ui;

/**
 * Role names for {@code @RolesAllowed} on views and layouts. Vaadin's navigation access control
 * asks {@code HttpServletRequest.isUserInRole}, which does not know Spring Security's role
 * hierarchy (ADMIN > SUPPORT), so a view open to support staff names both roles.
 */
public final class ConsoleRoles {

    public static final String SUPPORT = "SUPPORT";
    public static final String ADMIN = "ADMIN";

    private ConsoleRoles() {
    }
}
