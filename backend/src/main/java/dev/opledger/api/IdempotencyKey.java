package dev.opledger.api;

import dev.opledger.operation.OperationId;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
import java.util.List;
import org.springframework.security.web.firewall.RequestRejectedException;

/**
 * Reads the operationId from the {@code Idempotency-Key} header: exactly one, a UUID in its
 * 36-character text form. The quoted form of the IETF idempotency-key draft
 * ({@code "…"}, a structured-field string) is accepted too.
 */
final class IdempotencyKey {

    private IdempotencyKey() {
    }

    static OperationId from(HttpServletRequest request) {
        List<String> values;
        try {
            // the firewall checks a header's values lazily, as they are read
            values = Collections.list(request.getHeaders(OperationController.IDEMPOTENCY_KEY));
        } catch (RequestRejectedException e) {
            throw refused("the Idempotency-Key holds bytes a UUID never has (outside printable ASCII); send the "
                    + "operationId in its 36-character text form");
        }
        if (values.isEmpty()) {
            throw refused("the Idempotency-Key header is required: the operationId (a UUID) the app created "
                    + "for this action and reuses for every retry");
        }
        if (values.size() > 1) {
            throw refused("send exactly one Idempotency-Key header");
        }
        String value = values.getFirst().strip();
        if (value.length() == 38 && value.startsWith("\"") && value.endsWith("\"")) {
            value = value.substring(1, 37);
        }
        try {
            return OperationId.parse(value);
        } catch (IllegalArgumentException e) {
            throw refused("the Idempotency-Key must be a UUID in its 36-character text form, for example "
                    + "8e7b6d9e-2f4c-4a7e-9b1d-3c5e7f9a1b2c");
        }
    }

    private static ApiException refused(String detail) {
        return new ApiException(ProblemType.IDEMPOTENCY_KEY, detail, null);
    }
}
