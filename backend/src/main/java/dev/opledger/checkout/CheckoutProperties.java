package dev.opledger.checkout;

import java.math.BigDecimal;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The checkout operation type ({@code opledger.checkout}).
 *
 * @param approvalLimit an amount above this waits for a person's approval before the payment is captured
 * @param mcpServer the MCP server (a name under {@code opledger.mcp.servers}) whose tools the checkout calls
 */
@ConfigurationProperties("opledger.checkout")
record CheckoutProperties(@DefaultValue("500.00") BigDecimal approvalLimit, @DefaultValue("reference") String mcpServer) {

    CheckoutProperties {
        if (approvalLimit.signum() < 0) {
            throw new IllegalArgumentException("opledger.checkout.approval-limit must not be negative");
        }
        if (mcpServer.isBlank()) {
            throw new IllegalArgumentException("opledger.checkout.mcp-server must name an MCP server");
        }
    }
}
