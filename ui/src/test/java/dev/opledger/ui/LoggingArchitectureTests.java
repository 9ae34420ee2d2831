package dev.opledger.ui;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.opledger.operation.OperationMdc;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/** Every stage puts the operationId into the MDC the same way (STYLE.md, "Logging"). */
class LoggingArchitectureTests {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(new ProductionCode())
            .importPackages("dev.opledger");

    @Test
    void onlyOperationMdcTouchesTheMdc() {
        noClasses().that().doNotHaveFullyQualifiedName(OperationMdc.class.getName())
                .and().doNotHaveFullyQualifiedName(OperationMdc.class.getName() + "$Scope")
                .should().accessClassesThat().areAssignableTo(MDC.class)
                .because("MDC.putCloseable removes the key on close, so a nested scope strips the enclosing code's "
                        + "operationId; OperationMdc restores it")
                .check(CLASSES);
    }
}
