package dev.opledger.ui;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.jspecify.annotations.Nullable;

/** How the console writes times and optional values: in UTC, as the logs do. */
public final class Formats {

    private static final DateTimeFormatter INSTANT =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS 'UTC'").withZone(ZoneOffset.UTC);
    private static final int SHORT_HASH_LENGTH = 12;

    private Formats() {
    }

    public static String instant(Instant instant) {
        return INSTANT.format(instant);
    }

    /** The first hex digits of a hash, enough to tell hashes apart in a list. */
    public static String shortHash(String hex) {
        return shortId(hex);
    }

    /** The start of a long identifier (a hash, a base64 keyId), enough to tell them apart in a list. */
    public static String shortId(String id) {
        return id.length() <= SHORT_HASH_LENGTH ? id : id.substring(0, SHORT_HASH_LENGTH) + "…";
    }

    /** "yes" or "no". */
    public static String yesNo(boolean value) {
        return value ? "yes" : "no";
    }

    /** A dash for a value the request did not carry. */
    public static String orDash(@Nullable String value) {
        return value == null || value.isBlank() ? "—" : value;
    }
}
