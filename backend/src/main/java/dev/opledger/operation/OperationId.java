package dev.opledger.operation;

import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The business identity of an operation: a UUID the app created before its first attempt and
 * reuses for every retry. Parsed strictly (the 36-character RFC 9562 text form, either case),
 * because {@link UUID#fromString} accepts shortened forms such as {@code 1-1-1-1-1}.
 */
public record OperationId(UUID value) {

    private static final Pattern TEXT_FORM =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final UUID NIL = new UUID(0, 0);

    public OperationId {
        if (NIL.equals(value)) {
            throw new IllegalArgumentException("the nil UUID is not an operationId");
        }
    }

    /** Parses the canonical text form; throws {@link IllegalArgumentException} on anything else. */
    public static OperationId parse(String text) {
        if (text.length() != 36 || !TEXT_FORM.matcher(text).matches()) {
            throw new IllegalArgumentException("an operationId is a UUID in its 36-character text form");
        }
        return new OperationId(UUID.fromString(text.toLowerCase(Locale.ROOT)));
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
