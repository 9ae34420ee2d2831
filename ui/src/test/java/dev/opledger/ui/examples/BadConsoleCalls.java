package dev.opledger.ui.examples;

import dev.opledger.claim.ApprovalService;
import dev.opledger.claim.LifecycleService;
import dev.opledger.examplestage.UnauditedFacade;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import java.time.Duration;

/** Console code as ConsoleFacadeRules must refuse it, and one call it must allow (test code only). */
public final class BadConsoleCalls {

    private BadConsoleCalls() {
    }

    /** Around the façade: the worker SPI, neither role-checked nor audited. */
    public static final class LeasesOperations {
        void run(LifecycleService lifecycle) {
            lifecycle.lease("console", 1, Duration.ofSeconds(1));
        }
    }

    /** Role-checked, but its write is not audited. */
    public static final class CallsUnauditedFacade {
        void run(UnauditedFacade facade) {
            facade.change();
        }
    }

    /** As the console does it: the role-checked, audited façade. */
    public static final class Approves {
        void run(ApprovalService approvals) {
            approvals.approve(new SubjectId("someone"), OperationId.random(), null);
        }
    }
}
