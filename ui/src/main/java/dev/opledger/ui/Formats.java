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
        return hex.length() <= SHORT_HASH_LENGTH ? hex : hex.substring(0, SHORT_HASH_LENGTH) + "…";
    }

    /** A dash for a value the request did not carry. */
    public static String orDash(@Nullable String value) {
        return value == null || value.isBlank() ? "—" : value;
    }
}
