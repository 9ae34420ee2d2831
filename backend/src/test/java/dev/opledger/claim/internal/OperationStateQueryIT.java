package dev.opledger.claim.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.claim.FailureKind;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.ApiClient;
import dev.opledger.testing.Checkout;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.TestTokens;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/** The status read's one statement answers what the entity read answers, field for field. */
@NodeIntegrationTest
class OperationStateQueryIT {

    @LocalServerPort
    int port;

    @Autowired
    OperationStateQuery query;

    @Autowired
    OperationReader reader;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void readsTheStateTheEntityReadReadsAndOnlyTheSubjectsOwn() {
        String subject = "user-" + UUID.randomUUID();
        var operationId = OperationId.random();
        var response = ApiClient.onPort(port).submit(TestTokens.forSubject(subject), operationId.toString(),
                Checkout.command(1));
        assertThat(response.statusCode()).isEqualTo(202);
        var owner = new SubjectId(subject);

        var accepted = query.find(owner, operationId).orElseThrow();
        assertThat(accepted).isEqualTo(reader.find(owner, operationId).orElseThrow());
        assertThat(accepted.failure()).isNull();

        // a failed one carries its failure kind, and its later updated_at
        jdbc.update("UPDATE operation SET status = 'FAILED', failure_kind = 'OUTCOME', updated_at = updated_at + interval '1.5 s' "
                + "WHERE operation_id = ?", operationId.value());
        var failed = query.find(owner, operationId).orElseThrow();
        assertThat(failed).isEqualTo(reader.find(owner, operationId).orElseThrow());
        assertThat(failed.status()).isEqualTo(OperationStatus.FAILED);
        assertThat(failed.failure()).isEqualTo(FailureKind.OUTCOME);
        assertThat(failed.updatedAt()).isAfter(accepted.updatedAt());

        assertThat(query.find(new SubjectId("someone-else-" + UUID.randomUUID()), operationId)).isEmpty();
        assertThat(query.find(owner, OperationId.random())).isEmpty();
    }
}
