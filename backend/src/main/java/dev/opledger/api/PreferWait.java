package dev.opledger.api;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The {@code wait} preference of RFC 7240 ({@code Prefer: wait=10}): how long the client is
 * willing to wait for the operation to settle. Its rules, as this API applies them:
 * <ul>
 *   <li>preference names are case-insensitive; of several {@code wait}s (in one header or in
 *       several) only the first counts; other preferences, and parameters after {@code ;}, are
 *       ignored;</li>
 *   <li>the value is delta-seconds (digits), as a token or a quoted string ({@code wait="10"} is
 *       {@code wait=10}); anything else makes the preference invalid, and an invalid preference is
 *       ignored (RFC 7240 section 2: the request is served as if it had none; no problem);</li>
 *   <li>a value above the node's bound ({@code opledger.api.max-wait}) waits that bound, and so
 *       does one too large to represent (RFC 9111's rule for delta-seconds).</li>
 * </ul>
 */
final class PreferWait {

    static final String PREFER = "Prefer";
    static final String PREFERENCE_APPLIED = "Preference-Applied";

    /** Longer than any bound worth configuring: more digits than this is "too large" outright. */
    private static final int MAX_DIGITS = 9;

    private PreferWait() {
    }

    /** The wait to apply, bounded by {@code max}; empty when there is no valid {@code wait} preference. */
    static Optional<Duration> from(Enumeration<String> headers, Duration max) {
        while (headers.hasMoreElements()) {
            for (String preference : preferences(headers.nextElement())) {
                String nameAndValue = preference.split(";", 2)[0];
                int equals = nameAndValue.indexOf('=');
                String name = (equals < 0 ? nameAndValue : nameAndValue.substring(0, equals)).strip();
                if (name.toLowerCase(Locale.ROOT).equals("wait")) {
                    return equals < 0 ? Optional.empty() : seconds(nameAndValue.substring(equals + 1).strip(), max);
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<Duration> seconds(String value, Duration max) {
        String digits = value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                ? value.substring(1, value.length() - 1) : value;
        if (digits.isEmpty()) {
            return Optional.empty();
        }
        for (int i = 0; i < digits.length(); i++) {
            if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
                return Optional.empty();
            }
        }
        int leadingZeros = 0;
        while (leadingZeros < digits.length() - 1 && digits.charAt(leadingZeros) == '0') {
            leadingZeros++;
        }
        String significant = digits.substring(leadingZeros);
        if (significant.length() > MAX_DIGITS) {
            return Optional.of(max);
        }
        Duration wanted = Duration.ofSeconds(Long.parseLong(significant));
        return Optional.of(wanted.compareTo(max) > 0 ? max : wanted);
    }

    /** A header value split at the commas that are not inside a quoted string. */
    private static List<String> preferences(String header) {
        List<String> preferences = new ArrayList<>();
        var current = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < header.length(); i++) {
            char c = header.charAt(i);
            if (quoted && c == '\\' && i + 1 < header.length()) {
                current.append(c).append(header.charAt(++i));
                continue;
            }
            if (c == '"') {
                quoted = !quoted;
            }
            if (c == ',' && !quoted) {
                preferences.add(current.toString());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        preferences.add(current.toString());
        return preferences;
    }

    /** The {@code Preference-Applied} value for a wait that was applied. */
    static String applied(Duration wait) {
        return "wait=" + wait.toSeconds();
    }
}
