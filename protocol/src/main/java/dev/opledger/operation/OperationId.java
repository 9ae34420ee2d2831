package dev.opledger.operation;

import java.util.Locale;
import java.util.UUID;

/**
 * The business identity of an operation: a UUID the app created before its first attempt and
 * reuses for every retry. Parsed strictly (the 36-character RFC 9562 text form, either case),
 * because {@link UUID#fromString} accepts shortened forms such as {@code 1-1-1-1-1}.
 */
public record OperationId(UUID value) {

    private static final UUID NIL = new UUID(0, 0);

    public OperationId {
        if (NIL.equals(value)) {
            throw new IllegalArgumentException("the nil UUID is not an operationId");
        }
    }

    /** Parses the canonical text form; throws {@link IllegalArgumentException} on anything else. */
    public static OperationId parse(String text) {
        if (!isTextForm(text)) {
            throw new IllegalArgumentException("an operationId is a UUID in its 36-character text form");
        }
        return new OperationId(UUID.fromString(text.toLowerCase(Locale.ROOT)));
    }

    /** 8-4-4-4-12 hexadecimal digits, either case. */
    private static boolean isTextForm(String text) {
        if (text.length() != 36) {
            return false;
        }
        for (int i = 0; i < 36; i++) {
            char c = text.charAt(i);
            boolean ok = (i == 8 || i == 13 || i == 18 || i == 23)
                    ? c == '-'
                    : (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    public static OperationId random() {
        return new OperationId(UUID.randomUUID());
    }

    /** The 16 bytes in RFC 9562 network order, as hashed into App Attest client data. */
    public byte[] bytes() {
        var bytes = new byte[16];
        long most = value.getMostSignificantBits();
        long least = value.getLeastSignificantBits();
        for (int i = 0; i < 8; i++) {
            bytes[i] = (byte) (most >>> (56 - 8 * i));
            bytes[8 + i] = (byte) (least >>> (56 - 8 * i));
        }
        return bytes;
    }

    /** The canonical lowercase text form. */
    @Override
    public String toString() {
        return value.toString();
    }
}
