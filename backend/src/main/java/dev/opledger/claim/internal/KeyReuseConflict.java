package dev.opledger.claim.internal;

import dev.opledger.claim.ConflictRecord;
import dev.opledger.operation.PayloadHash;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;
import org.hibernate.annotations.Immutable;

/** A refused reuse of an operationId with another payload; written by {@link ClaimStatement}. */
@Entity
@Immutable
@Table(name = "key_reuse_conflict")
class KeyReuseConflict {

    @Id
    private Long id;

    @Column(name = "operation_ref")
    private Long operationRef;

    @Column(name = "stored_payload_hash")
    private byte[] storedPayloadHash;

    @Column(name = "offered_payload_hash")
    private byte[] offeredPayloadHash;

    @Column(name = "offered_command_type")
    private String offeredCommandType;

    @Column(name = "detected_at")
    private Instant detectedAt;

    @Column(name = "request_id")
    private UUID requestId;

    @Column(name = "user_agent")
    private String userAgent;

    @Column(name = "client_address", columnDefinition = "inet")
    private String clientAddress;

    protected KeyReuseConflict() {
        // for JPA
    }

    Long operationRef() {
        return operationRef;
    }

    ConflictRecord toRecord(Operation operation) {
        var state = operation.toState();
        return new ConflictRecord(id, state.subject(), state.operationId(), new PayloadHash(storedPayloadHash),
                new PayloadHash(offeredPayloadHash), offeredCommandType, detectedAt, requestId, userAgent,
                clientAddress);
    }
}
