package dev.opledger.ui.devices;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.operation.SubjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DeviceSearchTest {

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "\t\n"})
    void blankShowsEveryKey(String text) {
        assertThat(new DeviceSearch(text).parse()).isEqualTo(new DeviceSearch.Valid(null));
    }

    @Test
    void ignoresWhitespaceAroundAPastedSubject() {
        assertThat(new DeviceSearch("  alice@example.com\n").parse())
                .isEqualTo(new DeviceSearch.Valid(new SubjectId("alice@example.com")));
    }

    @Test
    void reportsATooLongSubject() {
        assertThat(new DeviceSearch("s".repeat(SubjectId.MAX_LENGTH + 1)).parse())
                .isEqualTo(new DeviceSearch.Invalid(DeviceSearch.SUBJECT_ERROR));
    }

    @Test
    void reportsASubjectWithAControlCharacter() {
        assertThat(new DeviceSearch("bad\u0000subject").parse())
                .isEqualTo(new DeviceSearch.Invalid(DeviceSearch.SUBJECT_ERROR));
    }
}
