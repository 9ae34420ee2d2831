package dev.opledger.operation;

/**
 * Whether a Java string is Unicode text: every surrogate is half of a pair. A lone surrogate has no
 * UTF-8 form, so encoding it (for a hash, for PostgreSQL) replaces it with {@code ?}, and two
 * different strings become one.
 */
public final class UnicodeText {

    private UnicodeText() {
    }

    public static boolean isWellFormed(String string) {
        for (int i = 0; i < string.length(); i++) {
            char c = string.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < string.length() && Character.isLowSurrogate(string.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}
