package dev.opledger.operation;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a request body (or a token's claims) as I-JSON (RFC 7493), which RFC 8785
 * canonicalisation requires: UTF-8 decoded strictly, no duplicate member names, and no string
 * (member name or value) holding a lone surrogate, whether written raw or as an escape such as
 * <code>&#92;ud800</code>. It also refuses U+0000 in any string: PostgreSQL's {@code jsonb} and
 * {@code text} cannot store it. Every parser after this one (the canonicaliser, schema checks)
 * reads the same decoded text, so none can see other characters than the ones checked here; a
 * lenient decoder would map distinct bodies (an invalid byte, a lone surrogate) to one
 * replacement character, and so to one payload hash.
 *
 * @param text the body, decoded
 * @param tree the body, parsed
 */
public record IJson(String text, JsonNode tree) {

    private static final int MAX_NESTING_DEPTH = 64;

    // Strict: duplicate member names are ambiguous, trailing data is not JSON, and a depth limit
    // keeps the canonicaliser's recursion (and the string check below) bounded.
    private static final JsonMapper STRICT_JSON = JsonMapper.builder(JsonFactory.builder()
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(MAX_NESTING_DEPTH)
                            .build())
                    .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /** @throws MalformedCommandException when the bytes are not I-JSON, or a string holds U+0000 */
    public static IJson read(byte[] body) {
        if (body.length == 0) {
            throw new MalformedCommandException("the body is empty; it must be a JSON object");
        }
        String text = decodeUtf8(body);
        JsonNode tree;
        try {
            tree = STRICT_JSON.readTree(text);
        } catch (JacksonException e) {
            throw new MalformedCommandException("the body is not valid JSON: " + e.getOriginalMessage());
        }
        requireStorableStrings(tree);
        return new IJson(text, tree);
    }

    private static String decodeUtf8(byte[] body) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(body);
        CharBuffer out = CharBuffer.allocate(body.length);
        CoderResult result = decoder.decode(in, out, true);
        if (result.isError()) {
            throw new MalformedCommandException("the body is not valid UTF-8 (RFC 7493 I-JSON): an invalid "
                    + "byte sequence at byte " + in.position());
        }
        decoder.flush(out);
        return out.flip().toString();
    }

    /** Refuses the first string that holds U+0000 or a lone surrogate, naming it by its JSON pointer. */
    private static void requireStorableStrings(JsonNode tree) {
        String pointer = firstUnstorable(tree);
        if (pointer != null) {
            throw new MalformedCommandException("the string at " + (pointer.isEmpty() ? "the root" : pointer)
                    + " holds U+0000 (which cannot be stored) or a lone surrogate (which is not Unicode text, "
                    + "RFC 7493 I-JSON)");
        }
    }

    /** The pointer (RFC 6901) to the first unstorable string or member name, else null; built only on the way back. */
    private static @Nullable String firstUnstorable(JsonNode node) {
        if (node.isString()) {
            return isStorable(node.asString()) ? null : "";
        }
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> member : node.properties()) {
                String name = member.getKey();
                String below = isStorable(name) ? firstUnstorable(member.getValue()) : "";
                if (below != null) {
                    return "/" + printable(name).replace("~", "~0").replace("/", "~1") + below;
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String below = firstUnstorable(node.get(i));
                if (below != null) {
                    return "/" + i + below;
                }
            }
        }
        return null;
    }

    private static boolean isStorable(String string) {
        return string.indexOf('\u0000') < 0 && UnicodeText.isWellFormed(string);
    }

    /** The name with U+0000 and lone surrogates written as {@code \\uXXXX}, so a problem detail can quote it. */
    private static String printable(String name) {
        var out = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean paired = Character.isHighSurrogate(c) && i + 1 < name.length() && Character.isLowSurrogate(name.charAt(i + 1));
            if (paired) {
                out.append(c).append(name.charAt(++i));
            } else if (c == '\u0000' || Character.isSurrogate(c)) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
