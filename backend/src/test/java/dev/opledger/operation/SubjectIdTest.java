package dev.opledger.operation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SubjectIdTest {

    @Test
    void acceptsWhatIdentityProvidersUse() {
        assertThat(new SubjectId("auth0|5f7c8ec7c33c6c004bbafe82")).hasToString("auth0|5f7c8ec7c33c6c004bbafe82");
        assertThat(new SubjectId("s".repeat(SubjectId.MAX_LENGTH)).value()).hasSize(SubjectId.MAX_LENGTH);
    }

    // A NUL reached PostgreSQL once and failed the request with a 500: text cannot hold it.
    @ParameterizedTest
    @ValueSource(strings = {"", "  ", "bad\u0000subject", "tab\tbed", "line\nbreak", "del\u007f"})
    void refusesBlankAndControlCharacters(String value) {
        assertThatThrownBy(() -> new SubjectId(value)).isInstanceOf(IllegalArgumentException.class);
    }

    // Issue 8: U+D800 + "q" was stored as "?q" and read that subject's operations.
    @ParameterizedTest
    @ValueSource(strings = {"\ud800q", "q\udc00", "\udc00\ud800", "a\ud83d"})
    void refusesLoneSurrogates(String value) {
        assertThatThrownBy(() -> new SubjectId(value)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void keepsSupplementaryCharactersAndTheReplacementCharacter() {
        assertThat(new SubjectId("user-\ud83d\ude00").value()).isEqualTo("user-😀");
        assertThat(SubjectId.isValid("\ufffdq")).isTrue();
    }
}
