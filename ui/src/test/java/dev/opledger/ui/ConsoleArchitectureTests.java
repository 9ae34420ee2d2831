package dev.opledger.ui;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import jakarta.persistence.Entity;
import org.junit.jupiter.api.Test;
import org.springframework.data.repository.Repository;

/**
 * The console sees the stages through their façades and records only (STYLE.md, "Console"), and
 * only through methods that check the role on the server and audit what they change (issue 8).
 */
class ConsoleArchitectureTests {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(new ProductionCode())
            .importPackages("dev.opledger");

    @Test
    void consoleDoesNotReachIntoInternalPackages() {
        noClasses().that().resideInAPackage("dev.opledger.ui..")
                .should().dependOnClassesThat().resideInAPackage("..internal..")
                .because("a stage's internal package is its own; the console uses the stage's façade")
                .check(CLASSES);
    }

    @Test
    void consoleUsesNeitherRepositoriesNorEntities() {
        noClasses().that().resideInAPackage("dev.opledger.ui..")
                .should().dependOnClassesThat().areAssignableTo(Repository.class)
                .orShould().dependOnClassesThat().areAnnotatedWith(Entity.class)
                .orShould().dependOnClassesThat().resideInAPackage("jakarta.persistence..")
                .because("views show records from façades, never entities or repositories")
                .check(CLASSES);
    }

    @Test
    void consoleUsesNoStageBeanWithoutRoleChecks() {
        ConsoleFacadeRules.noDependencyOnUncheckedBeans().check(CLASSES);
    }

    @Test
    void consoleCallsOnlyRoleCheckedFacadeMethodsThatAuditTheirWrites() {
        ConsoleFacadeRules.callsOnlyRoleCheckedAndAuditedMethods().check(CLASSES);
    }
}
