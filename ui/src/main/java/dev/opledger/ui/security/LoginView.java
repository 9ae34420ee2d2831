package dev.opledger.ui.security;

import com.vaadin.flow.component.html.H1;
import com.vaadin.flow.component.html.Main;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.login.LoginForm;
import com.vaadin.flow.component.login.LoginI18n;
import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.BeforeEnterObserver;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import com.vaadin.flow.server.auth.AnonymousAllowed;
import com.vaadin.flow.spring.security.AuthenticationContext;

/**
 * Sign-in. The form posts to Spring Security's form login at {@code /login}; a failed attempt
 * comes back as {@code /login?error} and is shown on the form, with the same words whether the
 * password was wrong, the user unknown, or sign-in throttled.
 */
@Route(value = "login", autoLayout = false)
@PageTitle("Sign in · opledger console")
@AnonymousAllowed
class LoginView extends Main implements BeforeEnterObserver {

    private final AuthenticationContext authentication;
    private final LoginForm form = new LoginForm(i18n());

    LoginView(AuthenticationContext authentication) {
        this.authentication = authentication;
        form.setId("login-form");
        form.setAction("login");
        form.setForgotPasswordButtonVisible(false);

        var title = new H1("opledger console");
        var hint = new Paragraph("Support and admin staff sign in with their console account.");
        add(title, hint, form);
        getStyle().set("display", "flex").set("flex-direction", "column").set("align-items", "center")
                .set("justify-content", "center").set("min-height", "100vh").set("margin", "0");
    }

    @Override
    public void beforeEnter(BeforeEnterEvent event) {
        if (authentication.isAuthenticated()) {
            event.forwardTo("");
            return;
        }
        form.setError(event.getLocation().getQueryParameters().getParameters().containsKey("error"));
    }

    private static LoginI18n i18n() {
        LoginI18n i18n = LoginI18n.createDefault();
        i18n.getForm().setTitle("Sign in");
        // one answer for a wrong password, an unknown user and a lock after too many failures
        i18n.getErrorMessage().setTitle("Sign-in failed");
        i18n.getErrorMessage().setMessage("Check your username and password and try again. After several failed "
                + "attempts, signing in is paused for a few minutes.");
        return i18n;
    }
}
