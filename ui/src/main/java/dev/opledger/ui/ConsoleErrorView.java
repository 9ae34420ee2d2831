package dev.opledger.ui;

import com.vaadin.flow.component.html.Anchor;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.Main;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.ErrorParameter;
import com.vaadin.flow.router.HasErrorParameter;
import com.vaadin.flow.server.HttpStatusCode;
import com.vaadin.flow.server.auth.AnonymousAllowed;

/**
 * Replaces Vaadin's internal-error page for failures while opening a view (for example the
 * database failing in a view's {@code beforeEnter}). Failures in requests after that reach
 * {@link ConsoleErrorHandler}; both log and word the failure the same way, and neither shows
 * exception text, which Vaadin's default page does. Shows no data, so anyone may see it.
 */
@AnonymousAllowed
class ConsoleErrorView extends Main implements HasErrorParameter<Exception> {

    @Override
    public int setErrorParameter(BeforeEnterEvent event, ErrorParameter<Exception> parameter) {
        removeAll();
        String message = ConsoleErrorHandler.describe(parameter.getCaughtException())
                .orElse("The request was interrupted.");
        var text = new Paragraph(message);
        text.setId("console-error-message");
        add(new H2("This page could not be opened"), text, new Anchor("", "Back to the ledger"));
        getStyle().set("padding", "1rem");
        return ConsoleErrorHandler.REFUSED.equals(message) ? HttpStatusCode.FORBIDDEN.getCode()
                : HttpStatusCode.INTERNAL_SERVER_ERROR.getCode();
    }
}
