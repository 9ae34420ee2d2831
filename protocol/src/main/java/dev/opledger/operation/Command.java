package dev.opledger.operation;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * A command as the app sent it, {@code {"type": "...", "arguments": {...}}}, with its RFC 8785
 * canonical form and the payload hash over it. Every stage that sees a command (the API, App
 * Attest binding, MCP task creation) hashes it here, so they cannot disagree about the bytes.
 *
 * @param type the operation type
 * @param canonicalJson the RFC 8785 (JCS) canonical form of the whole command
 * @param payloadHash SHA-256 of {@code canonicalJson}'s UTF-8 bytes
 */
public record Command(String type, String canonicalJson, PayloadHash payloadHash) {

    public static final int MAX_TYPE_LENGTH = 100;
    private static final Pattern TYPE = Pattern.compile("[A-Za-z][A-Za-z0-9._-]{0,99}");

    /**
     * Parses and canonicalises a request body.
     *
     * @throws MalformedCommandException when the body is not I-JSON ({@link IJson}) or not a JSON object of
     *         the command's shape
     */
    public static Command parse(byte[] body) {
        IJson json = IJson.read(body);
        JsonNode root = json.tree();
        if (!root.isObject()) {
            throw new MalformedCommandException("the body must be a JSON object");
        }
        JsonNode type = root.get("type");
        if (type == null || !type.isString() || !TYPE.matcher(type.asString()).matches()) {
            throw new MalformedCommandException(
                    "\"type\" must be a string of 1 to " + MAX_TYPE_LENGTH
                            + " letters, digits, '.', '_' or '-', starting with a letter");
        }
        JsonNode arguments = root.get("arguments");
        if (arguments == null || !arguments.isObject()) {
            throw new MalformedCommandException("\"arguments\" must be a JSON object");
        }
        for (var name : root.propertyNames()) {
            if (!name.equals("type") && !name.equals("arguments")) {
                throw new MalformedCommandException("unknown member \"" + name + "\": a command has only \"type\" and \"arguments\"");
            }
        }
        byte[] canonical = canonicalize(json.text());
        return new Command(type.asString(), new String(canonical, StandardCharsets.UTF_8), PayloadHash.sha256(canonical));
    }

    // The decoded text, not the bytes: the canonicaliser's own decoding would replace what IJson refused.
    private static byte[] canonicalize(String text) {
        try {
            return CanonicalJson.canonicalize(text);
        } catch (IllegalArgumentException e) {
            // Jackson accepted it, so this is something JCS (I-JSON) forbids, such as a number
            // outside the IEEE 754 double range.
            throw new MalformedCommandException("the body " + e.getMessage());
        }
    }
}
