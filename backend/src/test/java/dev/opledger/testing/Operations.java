package dev.opledger.testing;

import dev.opledger.claim.AttemptContext;
import dev.opledger.claim.ClaimRequest;
import dev.opledger.claim.ClaimService;
import dev.opledger.claim.LeasedOperation;
import dev.opledger.claim.LifecycleService;
import dev.opledger.operation.Command;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Claims operations straight through the façade, for tests about what happens after the claim. */
public final class Operations {

    private Operations() {
    }

    /** Claims {@code count} valid {@code checkout} operations (see {@link Checkout}). */
    public static List<OperationId> claim(ClaimService claims, SubjectId subject, int count) {
        return claim(claims, subject, count, Checkout.TYPE, Checkout.arguments());
    }

    /**
     * Leases the claimed operation for {@code node}, as a worker would before writing anything for
     * it (effect records, checkpoints and the end of the run are fenced by the lease). Other
     * ACCEPTED operations of the test database are leased along with it.
     */
    public static LeasedOperation lease(LifecycleService lifecycle, String node, OperationId operationId) {
        return lifecycle.lease(node, 1000, Duration.ofMinutes(10)).stream()
                .filter(o -> o.operationId().equals(operationId)).findFirst()
                .orElseThrow(() -> new IllegalStateException(operationId + " was not there to lease"));
    }

    /** Claims {@code count} operations of a command the API might refuse: the façade does not check types. */
    public static List<OperationId> claim(ClaimService claims, SubjectId subject, int count, String type, String arguments) {
        Command command = Command.parse(("{\"type\":\"" + type + "\",\"arguments\":" + arguments + "}")
                .getBytes(StandardCharsets.UTF_8));
        List<OperationId> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            var id = OperationId.random();
            claims.claim(new ClaimRequest(subject, id, command, AttemptContext.unattested(UUID.randomUUID(), "test", null)));
            ids.add(id);
        }
        return ids;
    }
}
