package dev.opledger.ui;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.opledger.claim.ApprovalService;
import dev.opledger.claim.LifecycleService;
import dev.opledger.examplestage.UnauditedFacade;
import dev.opledger.ui.examples.BadConsoleCalls;
import org.junit.jupiter.api.Test;

/**
 * The console's façade rules fail on console code that breaks them, so they are not vacuous. (The
 * targets are imported with their code: the audit check follows their calls.)
 */
class ConsoleFacadeRulesTest {

    private final ClassFileImporter importer = new ClassFileImporter();

    @Test
    void refusesACallToTheWorkersLifecycle() {
        var classes = importer.importClasses(BadConsoleCalls.LeasesOperations.class, LifecycleService.class);

        assertThatThrownBy(() -> ConsoleFacadeRules.callsOnlyRoleCheckedAndAuditedMethods().check(classes))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("LifecycleService.lease")
                .hasMessageContaining("not role-checked");
        assertThatThrownBy(() -> ConsoleFacadeRules.noDependencyOnUncheckedBeans().check(classes))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("LifecycleService");
    }

    @Test
    void refusesACallToARoleCheckedWriteThatIsNotAudited() {
        var classes = importer.importClasses(BadConsoleCalls.CallsUnauditedFacade.class, UnauditedFacade.class);

        assertThatThrownBy(() -> ConsoleFacadeRules.callsOnlyRoleCheckedAndAuditedMethods().check(classes))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("UnauditedFacade.change")
                .hasMessageContaining("records no audit entry");
    }

    @Test
    void allowsTheApprovalFacade() {
        var classes = importer.importClasses(BadConsoleCalls.Approves.class, ApprovalService.class);

        assertThatCode(() -> ConsoleFacadeRules.callsOnlyRoleCheckedAndAuditedMethods().check(classes))
                .doesNotThrowAnyException();
        assertThatCode(() -> ConsoleFacadeRules.noDependencyOnUncheckedBeans().check(classes))
                .doesNotThrowAnyException();
    }
}
