package dev.opledger.operation;

/**
 * The user an operation belongs to: the {@code sub} claim of a verified bearer token. Control
 * characters are refused: PostgreSQL cannot store a NUL in text, and none belongs in an id. So is
 * a lone surrogate: it has no UTF-8 form, and the database would store <code>"&#92;ud800q"</code> as the
 * other subject {@code "?q"}.
 */
public record SubjectId(String value) {

    public static final int MAX_LENGTH = 255;

    public SubjectId {
        if (!isValid(value)) {
            throw new IllegalArgumentException("a subject is 1 to " + MAX_LENGTH
                    + " characters, not blank, without control characters");
        }
    }

    public static boolean isValid(String value) {
        return !value.isBlank() && value.length() <= MAX_LENGTH && value.chars().noneMatch(Character::isISOControl)
                && UnicodeText.isWellFormed(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
