package dev.opledger.ui;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.opledger.OpledgerApplication;
import dev.opledger.claim.LifecycleService;
import dev.opledger.effect.EffectReplays;
import dev.opledger.effect.EffectReviews;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.review.ReviewService;
import dev.opledger.submission.Submission;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.springframework.modulith.core.ApplicationModule;
import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModules;
import org.springframework.modulith.docs.Documenter;

/**
 * The top-level packages below {@code dev.opledger} are modules; each exposes its base package
 * and hides its subpackages. This module's test classpath sees all of them, backend and console;
 * test code (such as backend's test-jar) is left out.
 */
class ModularityTests {

    /**
     * The modules each module may use, following the path (ARCHITECTURE.md): a stage sees the
     * stages before it and the kernel ({@code operation}), never one after it, so a new stage
     * cannot reach into another's tables by calling its code. A module missing here fails the
     * test: a new module declares what it may use.
     */
    private static final Map<String, Set<String>> ALLOWED = Map.ofEntries(
            Map.entry("operation", Set.of()),
            // the MCP tasks extension (its own Maven module): shared by the MCP server, the client and reference-tools
            Map.entry("mcptasks", Set.of()),
            // the node's one LISTEN connection and its coalesced NOTIFY sender, for every stage that needs them
            Map.entry("notification", Set.of()),
            Map.entry("audit", Set.of("operation")),
            Map.entry("outbox", Set.of("operation")),
            Map.entry("feed", Set.of("operation")),
            Map.entry("mcp", Set.of("mcptasks", "operation")),
            Map.entry("attest", Set.of("audit", "operation")),
            Map.entry("claim", Set.of("audit", "notification", "operation", "outbox")),
            Map.entry("classification", Set.of("audit", "mcp", "notification", "operation")),
            Map.entry("effect", Set.of("classification", "mcp", "operation", "outbox")),
            Map.entry("graph", Set.of("claim", "effect", "operation")),
            Map.entry("checkout", Set.of("claim", "effect", "graph", "mcp", "operation")),
            // publish-note, the second operation type: the same stages as checkout, nothing of checkout's
            Map.entry("note", Set.of("claim", "effect", "graph", "mcp", "operation")),
            // one submission sequence for every channel (REST now, MCP next): type check, proof, claim
            Map.entry("submission", Set.of("attest", "claim", "graph", "operation")),
            Map.entry("api", Set.of("attest", "claim", "graph", "operation", "submission")),
            // the node as an MCP server: a channel like api (whose problem types it answers with)
            Map.entry("mcpserver", Set.of("api", "claim", "graph", "mcptasks", "operation", "submission")),
            // a person's resolution of an unknown outcome: the effect's record and the operation's status, together
            Map.entry("review", Set.of("audit", "claim", "effect", "operation")),
            // the replay stage forks a graph (graph), hands it to the workers (claim) and guards its effects (effect)
            Map.entry("replay", Set.of("audit", "claim", "classification", "effect", "graph", "operation")),
            Map.entry("node", Set.of("audit", "operation")),
            // the stuck-tasks read model: reads claim's, effect's and mcpserver's tables, uses claim's cancel types
            Map.entry("stuck", Set.of("claim", "operation")),
            // reference-tools (its own Maven module, embedded by the local run) uses nothing of the node
            Map.entry("tools", Set.of("mcptasks")),
            // ui → mcp: the Tools view shows a registered tool's MCP annotations (ToolHints)
            Map.entry("ui", Set.of("attest", "audit", "claim", "classification", "effect", "graph", "mcp", "operation",
                    "outbox", "replay", "review", "stuck", "tools")));

    private final ApplicationModules modules = ApplicationModules.of(OpledgerApplication.class,
            ProductionCode.TEST_CODE);

    @Test
    void findsEveryStageAsAModule() {
        assertThat(modules.stream().map(ApplicationModule::getIdentifier).map(Object::toString))
                .contains("operation", "attest", "claim", "api", "audit", "node", "graph", "effect", "classification", "mcp", "outbox",
                        "feed", "checkout", "note", "submission", "mcpserver", "notification", "review", "replay", "stuck", "ui");
    }

    @Test
    void everyModuleUsesOnlyTheModulesItDeclares() {
        Map<String, Set<String>> undeclared = new TreeMap<>();
        modules.stream().forEach(module -> {
            String name = module.getIdentifier().toString();
            Set<String> allowed = ALLOWED.get(name);
            Set<String> used = module.getDirectDependencies(modules).uniqueModules()
                    .map(target -> target.getIdentifier().toString())
                    .collect(Collectors.toCollection(TreeSet::new));
            if (allowed == null) {
                undeclared.put(name + " (not declared in ALLOWED)", used);
            } else {
                used.removeAll(allowed);
                if (!used.isEmpty()) {
                    undeclared.put(name, used);
                }
            }
        });
        assertThat(undeclared).as("modules using modules they do not declare").isEmpty();
    }

    /**
     * An agent's attempt skips App Attest ({@link Submission.Proof.Agent}); only the MCP server,
     * whose callers are agents, may make one, so the REST API can never skip the device proof.
     */
    @Test
    void onlyTheMcpServerSubmitsAsAnAgent() {
        noClasses().that().resideOutsideOfPackage("dev.opledger.mcpserver..")
                .should().callConstructor(Submission.Proof.Agent.class)
                .because("App Attest applies to every channel but MCP")
                .check(new ClassFileImporter().withImportOption(new ProductionCode()).importPackages("dev.opledger"));
    }

    /**
     * A resolution of an unknown outcome changes the effect's record and the operation's status in
     * one transaction, role-checked and audited by {@link ReviewService}; neither half is called
     * alone from anywhere else.
     */
    @Test
    void onlyTheReviewFacadeResolvesAnUnknownOutcome() {
        var production = new ClassFileImporter().withImportOption(new ProductionCode()).importPackages("dev.opledger");
        noClasses().that().resideOutsideOfPackage("dev.opledger.review..")
                .should().callMethod(LifecycleService.class, "resolveReview", SubjectId.class, OperationId.class,
                        String.class, String.class, String.class, String.class, String.class)
                .orShould().callMethodWhere(target(owner(assignableTo(EffectReviews.class)))
                        .and(target(name("resolve"))))
                .because("a resolution is role-checked, audited and made on both sides at once")
                .check(production);
    }

    /**
     * A replay's start locks the operation, checks its dry run, forks the graph, changes the
     * status and guards the blocked effects in one transaction, role-checked and audited by
     * {@link dev.opledger.replay.ReplayService}; no part of it is called from anywhere else.
     */
    @Test
    void onlyTheReplayFacadeStartsAReplay() {
        var production = new ClassFileImporter().withImportOption(new ProductionCode()).importPackages("dev.opledger");
        noClasses().that().resideOutsideOfPackage("dev.opledger.replay..")
                .should().callMethodWhere(target(owner(assignableTo(LifecycleService.class)))
                        .and(target(name("startReplay")).or(target(name("lockForReplay")))))
                .orShould().callMethodWhere(target(owner(assignableTo(EffectReplays.class))))
                .because("a replay is role-checked, audited and bound to its dry run")
                .check(production);
    }

    @Test
    void modulesOnlyUseEachOthersPublicSurface() {
        modules.verify();
    }

    @Test
    void writesModuleDocumentation() {
        // not writeDocumentation(): that also writes module metadata into target/classes, which
        // would ship in the node's jar
        new Documenter(modules, Documenter.Options.defaults().withOutputFolder("target/modulith-docs"))
                .writeModulesAsPlantUml()
                .writeIndividualModulesAsPlantUml()
                .writeModuleCanvases()
                .writeAggregatingDocument();
    }
}
