package dev.opledger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.SocketException;
import org.junit.jupiter.api.Test;
import org.springframework.security.access.AccessDeniedException;

class ConsoleErrorHandlerTest {

    @Test
    void showsAReferenceButNotTheExceptionText() {
        var message = ConsoleErrorHandler.describe(new IllegalStateException("password=secret in a query"));

        assertThat(message).hasValueSatisfying(text -> assertThat(text)
                .matches("Something went wrong \\(reference [0-9a-f]{8}\\)\\..*")
                .doesNotContain("secret"));
    }

    @Test
    void tellsARefusalByAFacadeAsSuch() {
        var wrapped = new RuntimeException("while fetching a page", new AccessDeniedException("Access Denied"));

        assertThat(ConsoleErrorHandler.describe(wrapped)).hasValue(ConsoleErrorHandler.REFUSED);
    }

    @Test
    void saysNothingWhenTheBrowserWentAway() {
        assertThat(ConsoleErrorHandler.describe(new RuntimeException(new SocketException("Broken pipe")))).isEmpty();
    }
}
