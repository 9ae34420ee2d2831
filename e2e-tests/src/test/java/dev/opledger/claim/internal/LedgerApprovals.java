package dev.opledger.claim.internal;

import dev.opledger.node.database.LocatedDatabase;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * A person's approval as {@code LifecycleService.approve} records it (its own statement, not a
 * copy), for end-to-end tests that run no Spring context next to the nodes they start.
 */
public final class LedgerApprovals {

    private LedgerApprovals() {
    }

    /** AWAITING_APPROVAL → ACCEPTED with its approval row and transition; false when it was not awaiting approval. */
    public static boolean approve(LocatedDatabase database, long ref, String actor, String reason) {
        var dataSource = new DriverManagerDataSource(database.url(), database.username(), database.password());
        return new LifecycleStatements(new JdbcTemplate(dataSource)).decideApproval(ref, true, actor, reason);
    }
}
