package dev.opledger.outbox;

import dev.opledger.outbox.internal.OutboxReader;
import dev.opledger.operation.OperationId;
import java.util.Optional;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Service;

/**
 * The outbox as support staff see it: an operation's events with when each was published, and
 * how the relay keeps up. Read only; only SUPPORT (and ADMIN, which includes it) may read it.
 */
@Service
@PreAuthorize("hasRole('SUPPORT')")
public class OutboxService {

    private final OutboxReader reader;

    OutboxService(OutboxReader reader) {
        this.reader = reader;
    }

    /** The operation's events, oldest first; empty when there is no such operation. */
    public Optional<OperationEvents> events(OperationId operationId) {
        return reader.events(operationId);
    }

    public OutboxOverview overview() {
        return reader.overview();
    }
}
