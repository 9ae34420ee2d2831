package dev.opledger.cli.device;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The CBOR App Attest writes (RFC 8949): definite lengths only, maps in the order given, so the
 * bytes are predictable. Integers, byte strings, text strings, arrays and maps (keys integers or
 * text) are all it needs.
 */
final class Cbor {

    private static final int UNSIGNED = 0;
    private static final int NEGATIVE = 1;
    private static final int BYTES = 2;
    private static final int TEXT = 3;
    private static final int ARRAY = 4;
    private static final int MAP = 5;

    private Cbor() {
    }

    static byte[] encode(Object value) {
        var out = new ByteArrayOutputStream();
        write(out, value);
        return out.toByteArray();
    }

    private static void write(ByteArrayOutputStream out, Object value) {
        switch (value) {
            case Integer number -> writeInteger(out, number);
            case Long number -> writeInteger(out, number);
            case byte[] bytes -> {
                head(out, BYTES, bytes.length);
                out.writeBytes(bytes);
            }
            case String text -> {
                byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
                head(out, TEXT, utf8.length);
                out.writeBytes(utf8);
            }
            case List<?> list -> {
                head(out, ARRAY, list.size());
                list.forEach(element -> write(out, element));
            }
            case Map<?, ?> map -> {
                head(out, MAP, map.size());
                map.forEach((key, element) -> {
                    write(out, key);
                    write(out, element);
                });
            }
            default -> throw new IllegalArgumentException("no CBOR form for " + value.getClass().getName());
        }
    }

    private static void writeInteger(ByteArrayOutputStream out, long number) {
        if (number >= 0) {
            head(out, UNSIGNED, number);
        } else {
            head(out, NEGATIVE, -1 - number);
        }
    }

    /** The initial byte and argument: a major type with the shortest encoding of {@code argument}. */
    private static void head(ByteArrayOutputStream out, int majorType, long argument) {
        int major = majorType << 5;
        if (argument < 24) {
            out.write(major | (int) argument);
        } else if (argument < 0x100) {
            out.write(major | 24);
            out.write((int) argument);
        } else if (argument < 0x10000) {
            out.write(major | 25);
            bigEndian(out, argument, 2);
        } else if (argument < 0x1_0000_0000L) {
            out.write(major | 26);
            bigEndian(out, argument, 4);
        } else {
            out.write(major | 27);
            bigEndian(out, argument, 8);
        }
    }

    private static void bigEndian(ByteArrayOutputStream out, long value, int bytes) {
        for (int shift = 8 * (bytes - 1); shift >= 0; shift -= 8) {
            out.write((int) (value >>> shift) & 0xff);
        }
    }
}
