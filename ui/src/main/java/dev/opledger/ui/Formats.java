package dev.opledger.ui;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
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

    /** "350 ms", "4.2 s", "1 min 30 s", "2 h 5 min", "7 d": as precise as a person reading it needs. */
    public static String duration(Duration duration) {
        if (duration.isNegative()) {
            return "-" + duration(duration.negated());
        }
        if (duration.compareTo(Duration.ofSeconds(1)) < 0) {
            return duration.toMillis() + " ms";
        }
        if (duration.compareTo(Duration.ofMinutes(1)) < 0) {
            return String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
        }
        if (duration.compareTo(Duration.ofHours(1)) < 0) {
            return unitAndRest(duration.toMinutes(), "min", duration.toSecondsPart(), "s");
        }
        if (duration.compareTo(Duration.ofDays(1)) < 0) {
            return unitAndRest(duration.toHours(), "h", duration.toMinutesPart(), "min");
        }
        return unitAndRest(duration.toDays(), "d", duration.toHoursPart(), "h");
    }

    private static String unitAndRest(long value, String unit, int rest, String restUnit) {
        return rest == 0 ? value + " " + unit : value + " " + unit + " " + rest + " " + restUnit;
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
