package dev.opledger.operation;

/** The user an operation belongs to: the {@code sub} claim of a verified bearer token. */
public record SubjectId(String value) {

    public static final int MAX_LENGTH = 255;

    public SubjectId {
        if (value.isBlank() || value.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("a subject is 1 to " + MAX_LENGTH + " characters");
        }
    }

    @Override
    public String toString() {
        return value;
    }
}
