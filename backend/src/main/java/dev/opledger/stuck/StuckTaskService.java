package dev.opledger.stuck;

import dev.opledger.stuck.internal.StuckTaskQueries;
import java.util.List;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Service;

/**
 * Stuck tasks and the newest cancels, for support staff (SUPPORT, and ADMIN, which includes it).
 * Read-only; each call is one statement, oldest task first, at most {@link #MAX_PAGE_SIZE} rows.
 */
@Service
@PreAuthorize("hasRole('SUPPORT')")
public class StuckTaskService {

    /** The most rows one call returns. */
    public static final int MAX_PAGE_SIZE = 100;

    private final StuckTaskQueries queries;
    private final StuckTaskProperties properties;

    StuckTaskService(StuckTaskQueries queries, StuckTaskProperties properties) {
        this.queries = queries;
        this.properties = properties;
    }

    /** MCP tasks of this node's server whose operation has not ended, past their operation type's threshold. */
    public List<StuckTask> inbound(int offset, int limit) {
        checkPage(offset, limit);
        return queries.inbound(properties, offset, limit);
    }

    /** Tool calls in flight (effect STARTED, operation RUNNING) past their tool's threshold. */
    public List<StuckTask> outbound(int offset, int limit) {
        checkPage(offset, limit);
        return queries.outbound(properties, offset, limit);
    }

    /** The newest cancels, newest first, resolved or not. */
    public List<RecentCancel> recentCancels(int limit) {
        checkPage(0, limit);
        return queries.recentCancels(limit);
    }

    /** The thresholds in force. */
    public StuckTaskProperties thresholds() {
        return properties;
    }

    private static void checkPage(int offset, int limit) {
        if (offset < 0 || limit < 1 || limit > MAX_PAGE_SIZE) {
            throw new IllegalArgumentException("a page is 1 to " + MAX_PAGE_SIZE + " rows from offset 0 or more, not "
                    + limit + " from " + offset);
        }
    }
}
