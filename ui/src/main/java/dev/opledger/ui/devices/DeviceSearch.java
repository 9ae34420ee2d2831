package dev.opledger.ui.devices;

import dev.opledger.operation.SubjectId;
import org.jspecify.annotations.Nullable;

/**
 * What a person typed into the devices' subject filter. Blank shows every key; surrounding
 * whitespace is ignored; anything that is not a subject is reported instead of thrown.
 */
record DeviceSearch(String subject) {

    sealed interface Parsed {
    }

    /** @param subject the subject whose keys to show, or null for all keys */
    record Valid(@Nullable SubjectId subject) implements Parsed {
    }

    record Invalid(String subjectError) implements Parsed {
    }

    static final String SUBJECT_ERROR = "A subject is at most " + SubjectId.MAX_LENGTH
            + " characters, without control characters";

    Parsed parse() {
        String text = subject.strip();
        if (text.isEmpty()) {
            return new Valid(null);
        }
        return SubjectId.isValid(text) ? new Valid(new SubjectId(text)) : new Invalid(SUBJECT_ERROR);
    }
}
