package dev.opledger.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.ScreenshotAnimations;
import java.nio.file.Path;

/** What every console test does with a page: signing in, and the screenshots of docs/console.md. */
final class ConsolePages {

    /**
     * The system property naming the folder {@link #screenshot} writes to; unset (the default, and
     * CI), no test writes a screenshot. {@code ./opledger screenshots} sets it to docs/screenshots.
     */
    static final String SCREENSHOTS = "opledger.screenshots";

    private ConsolePages() {
    }

    static void signIn(Page page, RunningNode node, String username, String password) {
        page.navigate(node.uri("login").toString());
        // the theme, once: a node from the extracted jar served its pages without it (ConsoleShell)
        assertThat(page.locator("link[rel=stylesheet][href*='aura/aura.css']")).hasCount(1);
        page.getByLabel("Username").fill(username);
        // getByLabel("Password") would also match the show-password button
        page.getByRole(AriaRole.TEXTBOX, new Page.GetByRoleOptions().setName("Password")).fill(password);
        logInButton(page).click();
    }

    static Locator logInButton(Page page) {
        return page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Log in"));
    }

    /** Whether {@link #screenshot} writes anything in this run. */
    static boolean screenshotsOn() {
        String folder = System.getProperty(SCREENSHOTS);
        return folder != null && !folder.isBlank();
    }

    /**
     * The whole page as {@code <folder>/<view>.png} once {@code shown} is visible (scrolled to it), when
     * {@value #SCREENSHOTS} is set; nothing otherwise. The viewport is {@link BrowserExtension}'s
     * (1280×800 in a screenshot run), animations are stopped and the caret hidden, so a second run
     * differs only where the data does.
     * Vaadin's app layout scrolls the view inside the page, so the "full page" is that viewport;
     * every grid is shown from its first column.
     */
    static void screenshot(Page page, String view, Locator shown) {
        if (!screenshotsOn()) {
            return;
        }
        assertThat(shown).isVisible();
        shown.scrollIntoViewIfNeeded(); // a view taller than the viewport scrolls inside the app layout
        // ...but a grid scrolled sideways to a far-right cell would hide its first columns (the
        // tool's or the key's name): the picture shows each grid from its left edge
        page.evaluate("() => document.querySelectorAll('vaadin-grid').forEach(grid => {"
                + " if (grid.$ && grid.$.table) { grid.$.table.scrollLeft = 0; } })");
        Path file = Path.of(System.getProperty(SCREENSHOTS)).toAbsolutePath().resolve(view + ".png");
        page.screenshot(new Page.ScreenshotOptions().setPath(file).setFullPage(true)
                .setAnimations(ScreenshotAnimations.DISABLED));
        System.err.println("--- screenshot of " + view + ": " + file);
    }
}
