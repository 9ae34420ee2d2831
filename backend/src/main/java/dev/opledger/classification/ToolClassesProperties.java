package dev.opledger.classification;

import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Repeat classes set in configuration: {@code opledger.tools.classes.<server>.<tool>.repeat-class}
 * (and {@code check-tool} for check-then-write). They win over what annotations suggest.
 */
@ConfigurationProperties("opledger.tools")
public record ToolClassesProperties(@DefaultValue Map<String, Map<String, Configured>> classes) {

    public record Configured(RepeatClass repeatClass, @Nullable String checkTool, @Nullable String reason) {
    }
}
