package dev.opledger.ui.ledger;

import dev.opledger.claim.LedgerFilter;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import org.jspecify.annotations.Nullable;

/**
 * What a person typed into the ledger's filters, before it becomes a {@link LedgerFilter}. Blank
 * fields do not filter; surrounding whitespace (as pasted from a log line) is ignored; anything
 * that is not a subject or an operationId is reported per field instead of thrown.
 */
record LedgerSearch(@Nullable OperationStatus status, String subject, String operationId) {

    sealed interface Parsed {
    }

    record Valid(LedgerFilter filter) implements Parsed {
    }

    record Invalid(@Nullable String subjectError, @Nullable String operationIdError) implements Parsed {
    }

    static final String OPERATION_ID_ERROR =
            "Enter a whole operationId: a UUID such as 8e7b6d9e-2f4c-4a7e-9b1d-3c5e7f9a1b2c";
    static final String SUBJECT_ERROR = "A subject is at most " + SubjectId.MAX_LENGTH
            + " characters, without control characters";

    Parsed parse() {
        String subjectText = subject.strip();
        String operationIdText = operationId.strip();
        SubjectId parsedSubject = null;
        OperationId parsedOperationId = null;
        String subjectError = null;
        String operationIdError = null;
        if (!subjectText.isEmpty()) {
            try {
                parsedSubject = new SubjectId(subjectText);
            } catch (IllegalArgumentException e) {
                subjectError = SUBJECT_ERROR;
            }
        }
        if (!operationIdText.isEmpty()) {
            try {
                parsedOperationId = OperationId.parse(operationIdText);
            } catch (IllegalArgumentException e) {
                operationIdError = OPERATION_ID_ERROR;
            }
        }
        if (subjectError != null || operationIdError != null) {
            return new Invalid(subjectError, operationIdError);
        }
        return new Valid(new LedgerFilter(status, parsedSubject, parsedOperationId));
    }
}
