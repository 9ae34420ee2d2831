package dev.opledger.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.opledger.e2e.ConsolePages.screenshot;
import static dev.opledger.e2e.ConsolePages.signIn;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Base64;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Devices view in a real browser: an admin revokes a key with a reason, support staff see
 * keys but no way to revoke them. Keys are inserted into the node's database directly, as the
 * simulator app is not part of these tests.
 */
@ExtendWith({NodeExtension.class, BrowserExtension.class})
// operations here are made without App Attest: the console is what is tested
@NodeArguments("--opledger.attest.mode=optional")
@LongRunning
class DevicesIT {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Pattern ANY = Pattern.compile(".*");

    @Test
    void adminRevokesAKeyWithAReasonAndTheRevocationIsAudited(Page page, RunningNode node) throws SQLException {
        String subject = "e2e-devices-" + UUID.randomUUID();
        String keyId = insertKey(subject);

        signIn(page, node, "admin", "admin");
        page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Devices")).click();
        assertThat(page).hasURL(Pattern.compile(".*/devices$"));
        Locator grid = page.locator("#devices-grid");
        filterBySubject(page, subject);
        assertThat(shown(grid, keyId.substring(0, 12) + "…")).isVisible();
        assertThat(shown(grid, Pattern.compile("^Active$"))).isVisible();

        revokeButton(grid).click();
        Locator reason = page.locator("#revoke-reason");
        page.locator("#revoke-confirm").click();
        assertThat(reason).hasAttribute("invalid", ANY);
        assertThat(reason.locator("[slot='error-message']")).containsText("Give a reason");
        reason.locator("textarea").fill("device reported lost (e2e)");
        page.locator("#revoke-confirm").click();

        assertThat(page.locator("#revoke-dialog")).isHidden();
        assertThat(page.getByText(Pattern.compile("Key .+ revoked: attempts signed with it are refused"))).isVisible();
        assertThat(shown(grid, Pattern.compile("^Revoked by admin at .+ UTC: device reported lost \\(e2e\\)$")))
                .isVisible();
        screenshot(page, "devices",
                shown(grid, Pattern.compile("^Revoked by admin at .+ UTC: device reported lost \\(e2e\\)$")));
        assertThat(revokeButton(grid)).hasCount(0);
        try (Connection database = E2eDatabase.connect()) {
            var key = database.prepareStatement(
                    "SELECT revoked_at IS NOT NULL, revoked_by, revoke_reason FROM attest_key WHERE key_id = ?");
            key.setBytes(1, Base64.getDecoder().decode(keyId));
            try (ResultSet row = key.executeQuery()) {
                assertThat(row.next()).isTrue();
                assertThat(row.getBoolean(1)).as("revoked").isTrue();
                assertThat(row.getString(2)).isEqualTo("admin");
                assertThat(row.getString(3)).isEqualTo("device reported lost (e2e)");
            }
            var audit = database.prepareStatement("SELECT actor, detail FROM console_audit "
                    + "WHERE action = 'REVOKE_DEVICE_KEY' AND target = ?");
            audit.setString(1, keyId);
            try (ResultSet row = audit.executeQuery()) {
                assertThat(row.next()).as("an audit entry").isTrue();
                assertThat(row.getString(1)).isEqualTo("admin");
                assertThat(row.getString(2)).isEqualTo("device reported lost (e2e)");
                assertThat(row.next()).as("only one").isFalse();
            }
        }
    }

    /** Two admins at once: the second one's dialog was open while the first revoked the key. */
    @Test
    void revokingAKeySomeoneElseRevokedSaysWhoDidAndChangesNothing(Page page, RunningNode node) throws SQLException {
        String subject = "e2e-devices-" + UUID.randomUUID();
        String keyId = insertKey(subject);
        signIn(page, node, "admin", "admin");
        page.navigate(node.uri("devices").toString());
        Locator grid = page.locator("#devices-grid");
        filterBySubject(page, subject);

        revokeButton(grid).click();
        page.locator("#revoke-reason textarea").fill("too late");
        try (Connection database = E2eDatabase.connect()) {
            var revoke = database.prepareStatement("UPDATE attest_key SET revoked_at = now(), revoked_by = 'other-admin', "
                    + "revoke_reason = 'stolen' WHERE key_id = ?");
            revoke.setBytes(1, Base64.getDecoder().decode(keyId));
            assertThat(revoke.executeUpdate()).isOne();
        }
        page.locator("#revoke-confirm").click();

        assertThat(page.getByText(Pattern.compile("Nothing changed: key .+ was already revoked by other-admin at .+: "
                + "stolen\\."))).isVisible();
        assertThat(shown(grid, Pattern.compile("^Revoked by other-admin at .+: stolen$"))).isVisible();
        assertThat(revokeButton(grid)).hasCount(0);
    }

    @Test
    void supportSeesTheKeysButCannotRevokeThem(Page page, RunningNode node) throws SQLException {
        String subject = "e2e-devices-" + UUID.randomUUID();
        String keyId = insertKey(subject);

        signIn(page, node, "support", "support");
        page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Devices")).click();
        Locator grid = page.locator("#devices-grid");
        assertThat(grid).isVisible();

        Locator subjectField = page.locator("#filter-device-subject");
        subjectField.locator("input").fill("s".repeat(256));
        subjectField.locator("input").press("Enter");
        assertThat(subjectField).hasAttribute("invalid", ANY);
        assertThat(subjectField.locator("[slot='error-message']")).containsText("A subject is at most 255 characters");

        filterBySubject(page, subject);
        assertThat(subjectField).not().hasAttribute("invalid", ANY);
        assertThat(shown(grid, subject)).isVisible();
        assertThat(shown(grid, keyId.substring(0, 12) + "…")).isVisible();
        assertThat(shown(grid, "OPLEDGERDV.dev.opledger.simulator")).isVisible();
        assertThat(shown(grid, Pattern.compile("^Active$"))).isVisible();
        // no action column at all: not even a hidden row holds a Revoke button
        assertThat(grid.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Revoke"))).hasCount(0);
        assertThat(grid.getByText("Action", new Locator.GetByTextOptions().setExact(true))).hasCount(0);
    }

    /** Filters by a subject with one key, and waits until the grid holds that key alone. */
    static void filterBySubject(Page page, String subject) {
        Locator input = page.locator("#filter-device-subject input");
        input.fill(subject);
        input.press("Enter");
        Locator grid = page.locator("#devices-grid");
        // the grid knows its exact size once a short page came back: only then are other keys gone
        assertThat(grid).hasJSProperty("size", 1);
        assertThat(shown(grid, subject)).isVisible();
    }

    static Locator revokeButton(Locator grid) {
        return visible(grid.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Revoke")));
    }

    /**
     * Cells showing this text. The grid keeps rows it no longer needs, hidden with their old
     * content, so after a filter only the visible cells tell what it shows.
     */
    private static Locator shown(Locator grid, String text) {
        return visible(grid.getByText(text));
    }

    private static Locator shown(Locator grid, Pattern text) {
        return visible(grid.getByText(text));
    }

    private static Locator visible(Locator locator) {
        return locator.filter(new Locator.FilterOptions().setVisible(true));
    }

    /** A registered key as the attest stage stores it (random bytes of the right lengths). */
    static String insertKey(String subject) throws SQLException {
        byte[] keyId = random(32);
        byte[] publicKey = random(65);
        publicKey[0] = 0x04; // an uncompressed P-256 point
        try (Connection database = E2eDatabase.connect()) {
            var insert = database.prepareStatement("INSERT INTO attest_key (key_id, subject_id, public_key, app_id, "
                    + "environment, receipt, registration_challenge_hash) VALUES (?, ?, ?, ?, 'DEVELOPMENT', ?, ?)");
            insert.setBytes(1, keyId);
            insert.setString(2, subject);
            insert.setBytes(3, publicKey);
            insert.setString(4, "OPLEDGERDV.dev.opledger.simulator");
            insert.setBytes(5, random(64));
            insert.setBytes(6, random(32));
            insert.executeUpdate();
        }
        return Base64.getEncoder().encodeToString(keyId);
    }

    private static byte[] random(int length) {
        byte[] bytes = new byte[length];
        RANDOM.nextBytes(bytes);
        return bytes;
    }
}
