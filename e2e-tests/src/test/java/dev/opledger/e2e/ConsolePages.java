package dev.opledger.e2e;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;

/** What every console test does with a page: signing in. */
final class ConsolePages {

    private ConsolePages() {
    }

    static void signIn(Page page, RunningNode node, String username, String password) {
        page.navigate(node.uri("login").toString());
        page.getByLabel("Username").fill(username);
        // getByLabel("Password") would also match the show-password button
        page.getByRole(AriaRole.TEXTBOX, new Page.GetByRoleOptions().setName("Password")).fill(password);
        logInButton(page).click();
    }

    static Locator logInButton(Page page) {
        return page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Log in"));
    }
}
