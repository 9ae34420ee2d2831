package dev.opledger.testing;

import dev.opledger.claim.AttemptContext;
import dev.opledger.claim.ClaimRequest;
import dev.opledger.claim.ClaimService;
import dev.opledger.operation.Command;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import java.nio.charset.StandardCharsets;
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
