package dev.opledger.ui.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.claim.LedgerFilter;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LedgerSearchTest {

    private static final String ID = "8e7b6d9e-2f4c-4a7e-9b1d-3c5e7f9a1b2c";

    @Test
    void blankFieldsDoNotFilter() {
        assertThat(new LedgerSearch(null, " ", "").parse()).isEqualTo(new LedgerSearch.Valid(LedgerFilter.none()));
    }

    @Test
    void everyFieldNarrowsTheLedger() {
        var parsed = new LedgerSearch(OperationStatus.RUNNING, "alice", ID).parse();

        assertThat(parsed).isEqualTo(new LedgerSearch.Valid(
                new LedgerFilter(OperationStatus.RUNNING, new SubjectId("alice"), OperationId.parse(ID))));
    }

    @Test
    void ignoresWhitespaceAroundAPastedOperationIdAndAcceptsUpperCase() {
        var parsed = new LedgerSearch(null, "", "  " + ID.toUpperCase() + "\n").parse();

        assertThat(parsed).isEqualTo(new LedgerSearch.Valid(new LedgerFilter(null, null, OperationId.parse(ID))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"not-a-uuid", "8e7b6d9e", "1-1-1-1-1", "00000000-0000-0000-0000-000000000000",
            "8e7b6d9e-2f4c-4a7e-9b1d-3c5e7f9a1b2cX"})
    void reportsAMalformedOperationIdInsteadOfThrowing(String text) {
        assertThat(new LedgerSearch(null, "", text).parse())
                .isEqualTo(new LedgerSearch.Invalid(null, LedgerSearch.OPERATION_ID_ERROR));
    }

    @Test
    void reportsATooLongSubject() {
        assertThat(new LedgerSearch(null, "s".repeat(SubjectId.MAX_LENGTH + 1), "").parse())
                .isEqualTo(new LedgerSearch.Invalid(LedgerSearch.SUBJECT_ERROR, null));
    }

    @Test
    void reportsASubjectWithAControlCharacter() {
        assertThat(new LedgerSearch(null, "bad\u0000subject", "").parse())
                .isEqualTo(new LedgerSearch.Invalid(LedgerSearch.SUBJECT_ERROR, null));
    }
}
