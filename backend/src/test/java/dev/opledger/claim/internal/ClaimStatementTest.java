package dev.opledger.claim.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.outbox.EventType;
import dev.opledger.outbox.OutboxRow;
import org.junit.jupiter.api.Test;

/** The claim's SQL is a plain text block (the claim benchmark reads it from the source), so its event is checked here. */
class ClaimStatementTest {

    @Test
    void writesItsAcceptanceWithTheOutboxsInsertAndType() {
        assertThat(ClaimStatement.SQL.replaceAll("\\s+", " "))
                .contains(OutboxRow.INSERT + " SELECT c.id, f.operation_id, f.subject_id, 1, '"
                        + EventType.OperationAccepted.name() + "', 'ACCEPTED',");
    }
}
