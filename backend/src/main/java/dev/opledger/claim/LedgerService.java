package dev.opledger.claim;

import dev.opledger.claim.internal.OperationReader;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import java.util.List;
import java.util.Optional;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Service;

/**
 * The ledger as support staff see it: operations newest first, one operation in detail, and the
 * recorded key-reuse conflicts. Only SUPPORT (and ADMIN, which includes it) may read it.
 */
@Service
@PreAuthorize("hasRole('SUPPORT')")
public class LedgerService {

    /** The largest page the console may ask for. */
    public static final int MAX_PAGE_SIZE = 500;

    private final OperationReader reader;

    LedgerService(OperationReader reader) {
        this.reader = reader;
    }

    public List<OperationState> operations(LedgerFilter filter, int offset, int limit) {
        return reader.page(filter, checkOffset(offset), checkLimit(limit));
    }

    public Optional<OperationDetail> operation(SubjectId subject, OperationId operationId) {
        return reader.detail(subject, operationId);
    }

    /**
     * The operation with this id, whoever its subject: operationIds are unique across subjects
     * (changelog claim/008), so support staff can open one from an id in a ticket or a log line.
     */
    public Optional<OperationDetail> operation(OperationId operationId) {
        return reader.detail(operationId);
    }

    public List<ConflictRecord> conflicts(int offset, int limit) {
        return reader.conflicts(checkOffset(offset), checkLimit(limit));
    }

    private static int checkOffset(int offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("offset must not be negative");
        }
        return offset;
    }

    private static int checkLimit(int limit) {
        if (limit < 1 || limit > MAX_PAGE_SIZE) {
            throw new IllegalArgumentException("limit must be 1 to " + MAX_PAGE_SIZE);
        }
        return limit;
    }
}
