package dev.opledger.mcp.internal;

import java.util.Objects;

/** How this client names itself to servers ({@code clientInfo}). */
final class ClientIdentity {

    static final String NAME = "opledger";
    static final String VERSION = Objects.requireNonNullElse(ClientIdentity.class.getPackage().getImplementationVersion(),
            "dev");

    private ClientIdentity() {
    }
}
