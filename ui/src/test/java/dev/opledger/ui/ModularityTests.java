package dev.opledger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.OpledgerApplication;
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

    private final ApplicationModules modules = ApplicationModules.of(OpledgerApplication.class,
            ProductionCode.TEST_CODE);

    @Test
    void findsEveryStageAsAModule() {
        assertThat(modules.stream().map(ApplicationModule::getIdentifier).map(Object::toString))
                .contains("operation", "attest", "claim", "api", "audit", "node", "graph", "effect", "classification", "mcp", "outbox",
                        "feed", "ui");
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
