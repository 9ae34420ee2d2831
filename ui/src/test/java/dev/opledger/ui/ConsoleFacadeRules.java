package dev.opledger.ui;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaCodeUnitAccess;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import dev.opledger.audit.AuditService;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * What the console may call on the stages (issue 8): only methods of beans that are role-checked
 * on the server ({@code @PreAuthorize} on the method or its class), and every one of them that
 * writes (a {@code @Transactional} method that is not read-only) records an audit entry. A bean
 * with no role check at all (a worker SPI such as {@code LifecycleService}) is not even a
 * dependency of the console.
 */
final class ConsoleFacadeRules {

    static final String CONSOLE = "dev.opledger.ui..";

    private ConsoleFacadeRules() {
    }

    /** The console depends on no stage bean that has no role check at all. */
    static ArchRule noDependencyOnUncheckedBeans() {
        return noClasses().that().resideInAPackage(CONSOLE)
                .should().dependOnClassesThat(STAGE_BEAN_WITHOUT_ROLE_CHECK)
                .because("a bean without role checks is for workers or the API, not for a person in the console");
    }

    /** Every stage bean method the console calls or refers to is role-checked, and audited if it writes. */
    static ArchRule callsOnlyRoleCheckedAndAuditedMethods() {
        return classes().that().resideInAPackage(CONSOLE)
                .should(new ArchCondition<JavaClass>("call only role-checked stage methods, audited when they write") {
                    @Override
                    public void check(JavaClass console, ConditionEvents events) {
                        for (JavaCodeUnitAccess<?> access : console.getAccessesFromSelf().stream()
                                .filter(JavaCodeUnitAccess.class::isInstance).map(a -> (JavaCodeUnitAccess<?>) a).toList()) {
                            checkAccess(access, events);
                        }
                    }
                })
                .because("a person's change of state goes through a façade that checks the role and audits it");
    }

    private static void checkAccess(JavaCodeUnitAccess<?> access, ConditionEvents events) {
        JavaClass owner = access.getTargetOwner();
        if (!isStageBean(owner)) {
            return;
        }
        Optional<? extends JavaCodeUnit> resolved = access.getTarget().resolveMember();
        if (resolved.isEmpty() || !(resolved.get() instanceof JavaMethod method)) {
            return;
        }
        if (!method.isAnnotatedWith(PreAuthorize.class) && !owner.isAnnotatedWith(PreAuthorize.class)) {
            events.add(SimpleConditionEvent.violated(access, access.getDescription()
                    + ": the target is not role-checked (@PreAuthorize)"));
        } else if (writes(method) && !recordsAudit(method)) {
            events.add(SimpleConditionEvent.violated(access, access.getDescription()
                    + ": the target writes but records no audit entry (AuditService.record)"));
        }
    }

    private static boolean isStageBean(JavaClass type) {
        return type.getPackageName().startsWith("dev.opledger.") && !type.getPackageName().startsWith("dev.opledger.ui")
                && type.isMetaAnnotatedWith(Component.class);
    }

    private static boolean writes(JavaMethod method) {
        return method.tryGetAnnotationOfType(Transactional.class).map(tx -> !tx.readOnly())
                .or(() -> method.getOwner().tryGetAnnotationOfType(Transactional.class).map(tx -> !tx.readOnly()))
                .orElse(false);
    }

    /** Calls {@link AuditService#record}, itself or through methods of its own class. */
    private static boolean recordsAudit(JavaMethod method) {
        Set<JavaCodeUnit> seen = new HashSet<>();
        var pending = new ArrayDeque<JavaCodeUnit>();
        pending.add(method);
        while (!pending.isEmpty()) {
            JavaCodeUnit unit = pending.pop();
            if (!seen.add(unit)) {
                continue;
            }
            for (var call : unit.getCallsFromSelf()) {
                if (call.getTargetOwner().isEquivalentTo(AuditService.class) && call.getName().equals("record")) {
                    return true;
                }
                if (call.getTargetOwner().equals(method.getOwner())) {
                    call.getTarget().resolveMember().ifPresent(pending::add);
                }
            }
        }
        return false;
    }

    private static final DescribedPredicate<JavaClass> STAGE_BEAN_WITHOUT_ROLE_CHECK = DescribedPredicate.describe(
            "are stage beans without any role check",
            type -> isStageBean(type) && !type.isAnnotatedWith(PreAuthorize.class)
                    && type.getMethods().stream().noneMatch(m -> m.isAnnotatedWith(PreAuthorize.class)));
}
