package dev.opledger.mcpserver.internal;

import dev.opledger.claim.ClientInput;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.modern.McpException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The client's {@code inputResponses} (MRTR's InputResponses: an object of results by request
 * key), checked before anything is recorded. Malformed → {@code -32602} and nothing changes: not
 * an object, more than {@value #MAX_RESPONSES} entries, a key longer than {@value #MAX_KEY_LENGTH},
 * a value that is not an object or whose JSON exceeds {@value #MAX_RESPONSE_BYTES} bytes, and, for a
 * request still open, a response that does not answer it (an elicitation's {@code action} not
 * accept/decline/cancel; accepted {@code content} missing a required field or of another type than
 * the requested schema says). A well-formed response to a key that is not open (never asked,
 * answered before, another round's) is ignored, as the specifications say (ext-tasks "Task Update
 * Requests": SHOULD ignore; MRTR "Error Handling": ignore what is not recognised). Of an accepted
 * elicitation only the fields the request asked for are kept.
 */
final class InputResponses {

    static final int MAX_RESPONSES = 32;
    static final int MAX_KEY_LENGTH = 200;
    static final int MAX_RESPONSE_BYTES = 16 * 1024;

    private static final McpJsonMapper JSON = McpJsonDefaults.getMapper();
    private static final Set<String> ACTIONS = Set.of("accept", "decline", "cancel");

    private InputResponses() {
    }

    /**
     * The responses to the open requests ({@code open} by key), as they will be recorded; throws
     * {@code -32602} for a malformed {@code inputResponses}.
     */
    static Map<String, Object> check(@Nullable Object inputResponses, Map<String, ClientInput> open) {
        if (!(inputResponses instanceof Map<?, ?> responses)) {
            throw invalid("params.inputResponses must be an object: the responses by the keys of the task's inputRequests");
        }
        if (responses.size() > MAX_RESPONSES) {
            throw invalid("params.inputResponses has " + responses.size() + " entries; at most " + MAX_RESPONSES);
        }
        Map<String, Object> checked = new LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : responses.entrySet()) {
            String key = String.valueOf(entry.getKey());
            if (key.length() > MAX_KEY_LENGTH) {
                throw invalid("an inputResponses key is longer than " + MAX_KEY_LENGTH + " characters");
            }
            if (!(entry.getValue() instanceof Map<?, ?> response)) {
                throw invalid("inputResponses[\"" + key + "\"] must be an object (the result of the request)");
            }
            if (bytes(response) > MAX_RESPONSE_BYTES) {
                throw invalid("inputResponses[\"" + key + "\"] is larger than " + MAX_RESPONSE_BYTES + " bytes");
            }
            ClientInput input = open.get(key);
            if (input != null) {
                checked.put(key, answer(key, request(input), response));
            }
        }
        return checked;
    }

    /** The request as stored: {@code {"method", "params"}}. */
    static Map<String, Object> request(ClientInput input) {
        return read(input.request());
    }

    static Map<String, Object> read(String json) {
        try {
            return JSON.readValue(json, new TypeRef<Map<String, Object>>() {
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, Object> answer(String key, Map<String, Object> request, Map<?, ?> response) {
        if (!"elicitation/create".equals(request.get("method"))) {
            throw new IllegalStateException("request " + key + " asks " + request.get("method") + ", which the node never asks");
        }
        Object action = response.get("action");
        if (!(action instanceof String text) || !ACTIONS.contains(text)) {
            throw invalid("inputResponses[\"" + key + "\"].action must be \"accept\", \"decline\" or \"cancel\"");
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("action", text);
        if (!"accept".equals(text)) {
            return answer;
        }
        if (!(response.get("content") instanceof Map<?, ?> content)) {
            throw invalid("inputResponses[\"" + key + "\"].content must be an object with the requested fields");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> params = (Map<String, Object>) request.getOrDefault("params", Map.of());
        @SuppressWarnings("unchecked")
        Map<String, Object> schema = (Map<String, Object>) params.getOrDefault("requestedSchema", Map.of());
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> properties = (Map<String, Map<String, Object>>) schema.getOrDefault("properties",
                Map.of());
        @SuppressWarnings("unchecked")
        List<String> required = (List<String>) schema.getOrDefault("required", List.of());
        Map<String, Object> kept = new LinkedHashMap<>();
        for (Map.Entry<String, Map<String, Object>> property : properties.entrySet()) {
            String name = property.getKey();
            Object value = content.get(name);
            if (value == null) {
                if (required.contains(name)) {
                    throw invalid("inputResponses[\"" + key + "\"].content." + name + " is required");
                }
                continue;
            }
            String type = String.valueOf(property.getValue().get("type"));
            if (!fits(type, value)) {
                throw invalid("inputResponses[\"" + key + "\"].content." + name + " must be a " + type);
            }
            if (value instanceof String string && string.length() > 4096) {
                throw invalid("inputResponses[\"" + key + "\"].content." + name + " is longer than 4096 characters");
            }
            kept.put(name, value);
        }
        answer.put("content", kept);
        return answer;
    }

    private static boolean fits(String type, Object value) {
        return switch (type) {
            case "string" -> value instanceof String;
            case "boolean" -> value instanceof Boolean;
            case "integer" -> value instanceof Integer || value instanceof Long || value instanceof java.math.BigInteger;
            case "number" -> value instanceof Number;
            default -> false;
        };
    }

    private static int bytes(Object value) {
        return write(value).getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }

    private static McpException invalid(String message) {
        return McpException.invalidParams(message);
    }
}
