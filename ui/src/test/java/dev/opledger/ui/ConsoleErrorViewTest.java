package dev.opledger.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.ErrorParameter;
import org.junit.jupiter.api.Test;
import org.springframework.security.access.AccessDeniedException;

class ConsoleErrorViewTest {

    private final ConsoleErrorView view = new ConsoleErrorView();

    @Test
    void aFailingViewAnswers500WithAReferenceAndNoExceptionText() {
        var failure = new IllegalStateException("FATAL: password authentication failed for user \"opledger\"");

        int status = view.setErrorParameter(mock(BeforeEnterEvent.class), new ErrorParameter<>(Exception.class, failure));

        assertThat(status).isEqualTo(500);
        assertThat(view.getElement().getTextRecursively()).contains("reference").doesNotContain("password");
    }

    @Test
    void aRefusalByAFacadeAnswers403() {
        int status = view.setErrorParameter(mock(BeforeEnterEvent.class),
                new ErrorParameter<>(Exception.class, new AccessDeniedException("Access Denied")));

        assertThat(status).isEqualTo(403);
        assertThat(view.getElement().getTextRecursively()).contains(ConsoleErrorHandler.REFUSED);
    }
}
