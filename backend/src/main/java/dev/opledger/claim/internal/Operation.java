package dev.opledger.claim.internal;

import dev.opledger.claim.FailureKind;
import dev.opledger.claim.OperationState;
import dev.opledger.operation.Command;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.PayloadHash;
import dev.opledger.operation.SubjectId;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;
import org.hibernate.annotations.Immutable;
import org.jspecify.annotations.Nullable;

/**
 * The read model of a claimed operation. Rows are written only by {@link ClaimStatement} and
 * {@link LifecycleStatements}, never through this entity.
 */
@Entity
@Immutable
@Table(name = "operation")
class Operation {

    @Id
    private Long id;

    @Column(name = "subject_id")
    private String subjectId;

    @Column(name = "operation_id")
    private UUID operationId;

    @Column(name = "payload_hash")
    private byte[] payloadHash;

    @Column(name = "command_type")
    private String commandType;

    @Column(name = "command", columnDefinition = "jsonb")
    private String command;

    @Enumerated(EnumType.STRING)
    private OperationStatus status;

    @Column(name = "created_at")
    private Instant createdAt;

    @Column(name = "updated_at")
    private Instant updatedAt;

    private boolean attested;

    @Column(name = "status_reason")
    private @Nullable String statusReason;

    @Enumerated(EnumType.STRING)
    @Column(name = "failure_kind")
    private @Nullable FailureKind failureKind;

    protected Operation() {
        // for JPA
    }

    Long id() {
        return id;
    }

    boolean attested() {
        return attested;
    }

    /** Why the operation is in its status (a failure, a review, a decision); null when nothing was said. */
    @Nullable String statusReason() {
        return statusReason;
    }

    /**
     * The command in its canonical form, the text its payload hash covers. The {@code jsonb} column
     * keeps the JSON value but not its text (it reorders members and adds spaces), so the
     * canonical form is computed again: RFC 8785 gives one text per value.
     */
    String canonicalCommand() {
        return Command.parse(command.getBytes(StandardCharsets.UTF_8)).canonicalJson();
    }

    OperationState toState() {
        return new OperationState(new SubjectId(subjectId), new OperationId(operationId), commandType, status,
                new PayloadHash(payloadHash), createdAt, updatedAt, failureKind);
    }
}
