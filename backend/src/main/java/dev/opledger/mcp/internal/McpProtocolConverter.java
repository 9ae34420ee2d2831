package dev.opledger.mcp.internal;

import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.core.convert.converter.Converter;
import org.springframework.stereotype.Component;

/**
 * Binds {@code opledger.mcp.servers.<name>.protocol}: the revisions are dates, which the lenient
 * enum binding cannot match to constant names.
 */
@Component
@ConfigurationPropertiesBinding
class McpProtocolConverter implements Converter<String, McpProtocol> {

    @Override
    public McpProtocol convert(String source) {
        return McpProtocol.of(source);
    }
}
