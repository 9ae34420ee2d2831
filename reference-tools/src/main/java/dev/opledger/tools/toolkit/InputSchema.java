package dev.opledger.tools.toolkit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A tool's input schema: a JSON object with typed properties. Every tool requires
 * {@code operationId} and {@code stepKey}, stored with the effect it makes.
 */
public final class InputSchema {

    private final Map<String, Object> properties = new LinkedHashMap<>();
    private final List<String> required = new ArrayList<>();

    private InputSchema() {
        required("operationId", Map.of("type", "string", "minLength", 1,
                "description", "The opledger operation this call belongs to"));
        required("stepKey", Map.of("type", "string", "minLength", 1,
                "description", "The step of the operation that makes this call"));
    }

    public static InputSchema forOperationStep() {
        return new InputSchema();
    }

    public InputSchema required(String name, Map<String, Object> schema) {
        properties.put(name, schema);
        required.add(name);
        return this;
    }

    public InputSchema optional(String name, Map<String, Object> schema) {
        properties.put(name, schema);
        return this;
    }

    public static Map<String, Object> text(String description) {
        return Map.of("type", "string", "minLength", 1, "description", description);
    }

    public Map<String, Object> asMap() {
        return Map.of("type", "object", "properties", Map.copyOf(properties), "required", List.copyOf(required),
                "additionalProperties", false);
    }
}
