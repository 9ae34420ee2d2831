package dev.opledger.e2e;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.assertions.PlaywrightAssertions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Debian's Chromium, headless, driven by Playwright: one browser per test class, a fresh context
 * (no cookies) and page per test. A failed test leaves a screenshot in {@code target/}.
 */
public class BrowserExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
        AfterTestExecutionCallback, AfterEachCallback, ParameterResolver {

    private static final List<String> CHROMIUM_ARGS = List.of("--no-sandbox", "--disable-gpu",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run");
    private static final double ASSERTION_TIMEOUT_MILLIS = 15_000;
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(BrowserExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        PlaywrightAssertions.setDefaultAssertionTimeout(ASSERTION_TIMEOUT_MILLIS);
        // never download a browser: this machine has Debian's
        var playwright = Playwright.create(new Playwright.CreateOptions()
                .setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
        var browser = playwright.chromium().launch(new BrowserType.LaunchOptions()
                .setExecutablePath(Path.of(System.getProperty("opledger.chromium", "/usr/bin/chromium")))
                .setHeadless(true)
                .setArgs(CHROMIUM_ARGS));
        var store = context.getStore(NAMESPACE);
        store.put(Playwright.class, playwright);
        store.put(Browser.class, browser);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        var store = context.getStore(NAMESPACE);
        store.remove(Browser.class); // closed with Playwright; JUnit must not close it again
        var playwright = store.remove(Playwright.class, Playwright.class);
        if (playwright != null) {
            playwright.close();
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        var browser = context.getStore(NAMESPACE).get(Browser.class, Browser.class);
        // a screenshot run (ConsolePages.screenshot) uses the fixed size docs/console.md's pictures have
        var browserContext = ConsolePages.screenshotsOn()
                ? browser.newContext(new Browser.NewContextOptions().setViewportSize(1280, 800))
                : browser.newContext(new Browser.NewContextOptions().setViewportSize(1400, 900));
        context.getStore(NAMESPACE).put(BrowserContext.class, browserContext);
        context.getStore(NAMESPACE).put(Page.class, browserContext.newPage());
    }

    @Override
    public void afterTestExecution(ExtensionContext context) {
        var page = context.getStore(NAMESPACE).get(Page.class, Page.class);
        if (page != null && context.getExecutionException().isPresent()) {
            Path shot = Path.of(System.getProperty("basedir", "."), "target",
                    context.getRequiredTestClass().getSimpleName() + "-" + context.getRequiredTestMethod().getName()
                            + ".png");
            page.screenshot(new Page.ScreenshotOptions().setPath(shot).setFullPage(true));
            System.err.println("--- screenshot of the failed test: " + shot.toAbsolutePath());
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        var browserContext = context.getStore(NAMESPACE).remove(BrowserContext.class, BrowserContext.class);
        context.getStore(NAMESPACE).remove(Page.class);
        if (browserContext != null) {
            browserContext.close();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Page.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getStore(NAMESPACE).get(Page.class, Page.class);
    }
}
