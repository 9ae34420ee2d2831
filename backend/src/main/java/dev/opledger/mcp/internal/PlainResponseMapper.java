package dev.opledger.mcp.internal;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.modern.JsonRpc.JSONRPCResponse;
import java.io.IOException;
import java.util.Map;

/**
 * The SDK's JSON mapper, but a JSON-RPC result response in its plain form is made into the SDK's
 * {@code JSONRPCResponse} directly: the transport parses every answer into a map, then converts
 * the map into the record with Jackson (writing it into tokens and reading them back), only to
 * hold the same values. Plain is exactly {@code jsonrpc} "2.0", an {@code id} that is a string or
 * an int or long, and a {@code result} object; the record then holds the parsed result itself,
 * as the conversion would hold its equal copy (the transport keeps no other reference to the map).
 * Anything else (an error, other members, another id type) goes through the SDK's mapper, whose
 * rules and failures decide. The conversion was about 2 % of the node's CPU per checkout (issue 13,
 * docs/benchmarks.md).
 */
final class PlainResponseMapper implements McpJsonMapper {

    private static final String VERSION = "2.0";

    private final McpJsonMapper sdk;

    PlainResponseMapper(McpJsonMapper sdk) {
        this.sdk = sdk;
    }

    @Override
    public <T> T convertValue(Object value, Class<T> type) {
        if (type == JSONRPCResponse.class && value instanceof Map<?, ?> message && isPlainResult(message)) {
            return type.cast(new JSONRPCResponse(VERSION, message.get("id"), message.get("result"), null));
        }
        return sdk.convertValue(value, type);
    }

    static boolean isPlainResult(Map<?, ?> message) {
        Object id = message.get("id");
        return message.size() == 3 && VERSION.equals(message.get("jsonrpc"))
                && (id instanceof String || id instanceof Integer || id instanceof Long)
                && message.get("result") instanceof Map;
    }

    @Override
    public <T> T convertValue(Object value, TypeRef<T> type) {
        return sdk.convertValue(value, type);
    }

    @Override
    public <T> T readValue(String content, Class<T> type) throws IOException {
        return sdk.readValue(content, type);
    }

    @Override
    public <T> T readValue(byte[] content, Class<T> type) throws IOException {
        return sdk.readValue(content, type);
    }

    @Override
    public <T> T readValue(String content, TypeRef<T> type) throws IOException {
        return sdk.readValue(content, type);
    }

    @Override
    public <T> T readValue(byte[] content, TypeRef<T> type) throws IOException {
        return sdk.readValue(content, type);
    }

    @Override
    public String writeValueAsString(Object value) throws IOException {
        return sdk.writeValueAsString(value);
    }

    @Override
    public byte[] writeValueAsBytes(Object value) throws IOException {
        return sdk.writeValueAsBytes(value);
    }
}
