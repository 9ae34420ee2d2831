package dev.opledger.e2e.mcp;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link EffectGatewayOverMcp} over the 2026-07-28 revision. */
class ModernEffectGatewayIT extends EffectGatewayOverMcp {

    private static final String NAME = "reference-modern";
    private static final String PROTOCOL = "2026-07-28";

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry registry) {
        configure(registry, NAME, PROTOCOL);
    }

    @Override
    String serverName() {
        return NAME;
    }

    @Override
    String protocol() {
        return PROTOCOL;
    }
}
