package dev.opledger.classification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolRef;
import dev.opledger.testing.NodeIntegrationTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * The console's edits of the tool registry: an admin's edit is applied, audited with before and
 * after, and followed by the gateway's next class lookup; an edit made on a stale read (or the
 * second of two at once) changes nothing and says so; SUPPORT reads and is refused every change.
 */
@NodeIntegrationTest
class ToolRegistryServiceIT {

    private static final ToolHints IDEMPOTENT = new ToolHints(false, true, false, false);
    private static final RetryPolicy ONE_CALL = new RetryPolicy(1, Duration.ofMillis(50), Duration.ofSeconds(2));

    @Autowired
    ToolRegistryService registry;

    @Autowired
    ClassificationService classification;

    @Autowired
    JdbcTemplate jdbc;

    ToolRef tool;

    @BeforeEach
    void aToolClassifiedFromItsAnnotations() {
        tool = new ToolRef("registry-" + UUID.randomUUID(), "set_shipping_address");
        assertThat(classification.classOf(tool, () -> Optional.of(IDEMPOTENT)).repeatClass()).isEqualTo(RepeatClass.IDEMPOTENT);
    }

    @AfterEach
    void signOut() {
        SecurityContextHolder.clearContext();
    }

    @Test
    void anAdminsEditIsAppliedAuditedWithBeforeAndAfterAndTheGatewayFollowsIt() {
        signedInAs("admin", "ROLE_ADMIN");
        long version = registry.tool(tool.server(), tool.tool()).orElseThrow().toolClass().version();

        var outcome = registry.edit(tool.server(), tool.tool(), version, RepeatClass.NEVER_REPEAT, null, ONE_CALL, "  charges twice on retry  ");

        assertThat(outcome).isInstanceOfSatisfying(ToolEditOutcome.Edited.class, edited -> {
            assertThat(edited.tool().toolClass().repeatClass()).isEqualTo(RepeatClass.NEVER_REPEAT);
            assertThat(edited.tool().toolClass().source()).isEqualTo(ClassSource.ADMIN);
            assertThat(edited.tool().toolClass().version()).isEqualTo(version + 1);
        });
        ToolClass next = classification.classOf(tool, Optional::empty);
        assertThat(next.repeatClass()).isEqualTo(RepeatClass.NEVER_REPEAT);
        assertThat(next.retry()).isEqualTo(ONE_CALL);
        assertThat(next.reason()).isEqualTo("charges twice on retry");
        assertThat(audit()).containsExactly(Map.of("actor", "admin", "action", "EDIT_TOOL_CLASS",
                "target", tool.server() + "/" + tool.tool(),
                "detail", "before: IDEMPOTENT (ANNOTATION), retry node defaults; after: NEVER_REPEAT (ADMIN), retry "
                        + "max 1 calls, backoff 50 ms, timeout 2000 ms; reason: charges twice on retry"));
    }

    @Test
    void anEditOnAStaleReadIsToldAndChangesNothing() {
        signedInAs("admin", "ROLE_ADMIN");
        long read = registry.tool(tool.server(), tool.tool()).orElseThrow().toolClass().version();
        assertThat(registry.edit(tool.server(), tool.tool(), read, RepeatClass.KEYED, null, RetryPolicy.DEFAULTS, "dedupes on its key"))
                .isInstanceOf(ToolEditOutcome.Edited.class);

        var second = registry.edit(tool.server(), tool.tool(), read, RepeatClass.NEVER_REPEAT, null, ONE_CALL, "opened before the first");

        assertThat(second).isInstanceOfSatisfying(ToolEditOutcome.ChangedMeanwhile.class, meanwhile -> {
            assertThat(meanwhile.current().toolClass().repeatClass()).isEqualTo(RepeatClass.KEYED);
            assertThat(meanwhile.current().toolClass().version()).isEqualTo(read + 1);
        });
        assertThat(classification.classOf(tool, Optional::empty).repeatClass()).isEqualTo(RepeatClass.KEYED);
        assertThat(audit()).extracting(row -> row.get("detail").toString())
                .singleElement().satisfies(detail -> assertThat(detail).endsWith("reason: dedupes on its key"));
    }

    @Test
    void ofTwoAdminsEditingAtOnceOneIsAppliedAndTheOtherIsTold() throws Exception {
        long read;
        signedInAs("admin", "ROLE_ADMIN");
        read = registry.tool(tool.server(), tool.tool()).orElseThrow().toolClass().version();
        SecurityContextHolder.clearContext();
        var start = new CountDownLatch(1);
        List<Future<ToolEditOutcome>> edits = new ArrayList<>();
        try (ExecutorService admins = Executors.newFixedThreadPool(2)) {
            for (RepeatClass wanted : List.of(RepeatClass.KEYED, RepeatClass.NEVER_REPEAT)) {
                edits.add(admins.submit(() -> {
                    signedInAs("admin-" + wanted, "ROLE_ADMIN");
                    start.await();
                    return registry.edit(tool.server(), tool.tool(), read, wanted, null, RetryPolicy.DEFAULTS, "set to " + wanted);
                }));
            }
            start.countDown();
        }
        List<ToolEditOutcome> outcomes = new ArrayList<>();
        for (Future<ToolEditOutcome> edit : edits) {
            outcomes.add(edit.get());
        }

        assertThat(outcomes).filteredOn(ToolEditOutcome.Edited.class::isInstance).hasSize(1);
        assertThat(outcomes).filteredOn(ToolEditOutcome.ChangedMeanwhile.class::isInstance).hasSize(1);
        var applied = ((ToolEditOutcome.Edited) outcomes.stream().filter(ToolEditOutcome.Edited.class::isInstance)
                .findFirst().orElseThrow()).tool().toolClass();
        assertThat(classification.classOf(tool, Optional::empty).repeatClass()).isEqualTo(applied.repeatClass());
        assertThat(applied.version()).isEqualTo(read + 1);
        assertThat(audit()).singleElement().satisfies(row -> assertThat(row.get("actor"))
                .isEqualTo("admin-" + applied.repeatClass()));
    }

    @Test
    void supportReadsTheRegistryAndIsRefusedEveryChange() {
        signedInAs("support", "ROLE_SUPPORT");
        RegisteredTool seen = registry.tools().stream().filter(t -> t.toolClass().server().equals(tool.server()))
                .findFirst().orElseThrow();
        assertThat(seen.toolClass().repeatClass()).isEqualTo(RepeatClass.IDEMPOTENT);

        assertThatThrownBy(() -> registry.edit(tool.server(), tool.tool(), seen.toolClass().version(), RepeatClass.NEVER_REPEAT, null,
                RetryPolicy.DEFAULTS, "support tries")).isInstanceOf(AccessDeniedException.class);
        assertThatThrownBy(() -> registry.resolve(1, true, "support tries")).isInstanceOf(AccessDeniedException.class);

        assertThat(classification.classOf(tool, Optional::empty).repeatClass()).isEqualTo(RepeatClass.IDEMPOTENT);
        assertThat(audit()).isEmpty();
    }

    @Test
    void anEditWithoutAReasonIsRefusedAndChangesNothing() {
        signedInAs("admin", "ROLE_ADMIN");
        long version = registry.tool(tool.server(), tool.tool()).orElseThrow().toolClass().version();

        assertThatThrownBy(() -> registry.edit(tool.server(), tool.tool(), version, RepeatClass.NEVER_REPEAT, null, RetryPolicy.DEFAULTS, " "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("give a reason");

        assertThat(registry.tool(tool.server(), tool.tool()).orElseThrow().toolClass().version()).isEqualTo(version);
        assertThat(audit()).isEmpty();
    }

    @Test
    void anAdminRejectsAFlaggedChangeOnceAuditedWithTheChangeAndTheClass() {
        long change = jdbc.queryForObject("""
                INSERT INTO tool_change (server, tool, kind, recorded, listed)
                VALUES (?, ?, 'SCHEMA', '{"type":"object"}'::jsonb, '{"type":"string"}'::jsonb) RETURNING id
                """, Long.class, tool.server(), tool.tool());
        signedInAs("admin", "ROLE_ADMIN");

        var first = registry.resolve(change, false, "the server's schema change is a bug");
        var second = registry.resolve(change, true, "too late");

        assertThat(first).isInstanceOfSatisfying(ChangeResolution.Resolved.class,
                resolved -> assertThat(resolved.status()).isEqualTo(ToolChange.Status.REJECTED));
        assertThat(second).isInstanceOf(ChangeResolution.AlreadyResolved.class);
        assertThat(audit()).singleElement().satisfies(row -> {
            assertThat(row).containsEntry("action", "REJECT_TOOL_CHANGE").containsEntry("actor", "admin");
            assertThat(row.get("detail").toString()).startsWith("SCHEMA change " + change + ": recorded ")
                    .contains("\"string\"").contains("before: IDEMPOTENT (ANNOTATION)")
                    .endsWith("after: IDEMPOTENT (ANNOTATION), retry node defaults; reason: the server's schema change is a bug");
        });
    }

    private List<Map<String, Object>> audit() {
        return jdbc.queryForList("SELECT actor, action, target, detail FROM console_audit WHERE target = ? ORDER BY id",
                tool.server() + "/" + tool.tool());
    }

    private static void signedInAs(String name, String role) {
        SecurityContextHolder.getContext().setAuthentication(
                UsernamePasswordAuthenticationToken.authenticated(name, "n/a", AuthorityUtils.createAuthorityList(role)));
    }
}
