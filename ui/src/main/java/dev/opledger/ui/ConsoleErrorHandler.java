package dev.opledger.ui;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.notification.Notification;
import com.vaadin.flow.component.notification.NotificationVariant;
import com.vaadin.flow.server.DefaultErrorHandler;
import com.vaadin.flow.server.ErrorEvent;
import com.vaadin.flow.server.ErrorHandler;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.access.AccessDeniedException;

/**
 * The console's one error handler: logs every unexpected failure with a short reference and shows
 * that reference to the person, never the exception text. A refusal by a façade's method security
 * is told as such.
 */
final class ConsoleErrorHandler implements ErrorHandler {

    private static final Logger log = LoggerFactory.getLogger(ConsoleErrorHandler.class);
    private static final int NOTIFICATION_MILLIS = 8000;
    static final String REFUSED = "You are not allowed to do that.";

    @Override
    public void error(ErrorEvent event) {
        describe(event.getThrowable()).ifPresent(ConsoleErrorHandler::show);
    }

    /** Logs a failure and says what to tell the person; empty when there is nobody to tell. */
    static Optional<String> describe(Throwable thrown) {
        Throwable failure = DefaultErrorHandler.findRelevantThrowable(thrown);
        if (isClientGone(failure)) {
            log.debug("the browser went away during a request", failure);
            return Optional.empty();
        }
        if (causedBy(failure, AccessDeniedException.class)) {
            log.warn("console action refused: {}", failure.getMessage());
            return Optional.of(REFUSED);
        }
        String reference = UUID.randomUUID().toString().substring(0, 8);
        log.error("console error {}", reference, failure);
        return Optional.of("Something went wrong (reference " + reference + "). It has been logged; please try again.");
    }

    private static void show(String message) {
        UI ui = UI.getCurrent();
        if (ui == null) {
            return;
        }
        // Usually the session is locked here (the failure happened while handling a request):
        // show it in this response. ui.access would queue it for the next round trip when the
        // failure happened while the response was being written (a grid fetching its rows).
        if (ui.getSession() != null && ui.getSession().hasLock()) {
            showNotification(message);
        } else {
            ui.access(() -> showNotification(message));
        }
    }

    private static void showNotification(String message) {
        var notification = Notification.show(message, NOTIFICATION_MILLIS, Notification.Position.TOP_CENTER);
        notification.addThemeVariants(NotificationVariant.ERROR);
        notification.setId("console-error");
    }

    private static boolean isClientGone(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (DefaultErrorHandler.SOCKET_EXCEPTIONS.contains(t.getClass().getName())) {
                return true;
            }
        }
        return false;
    }

    private static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
