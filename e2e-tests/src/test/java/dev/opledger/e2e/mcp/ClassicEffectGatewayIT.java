package dev.opledger.e2e.mcp;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link EffectGatewayOverMcp} over the 2025-11-25 revision. */
class ClassicEffectGatewayIT extends EffectGatewayOverMcp {

    private static final String NAME = "reference-classic";
    private static final String PROTOCOL = "2025-11-25";

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
