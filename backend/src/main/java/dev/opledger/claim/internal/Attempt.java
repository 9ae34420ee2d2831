package dev.opledger.claim.internal;

import dev.opledger.claim.AttemptChannel;
import dev.opledger.claim.AttemptRecord;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.Base64;
import java.util.UUID;
import org.hibernate.annotations.Immutable;

/** An accepted attempt of an operation (the claim or a replay); written by {@link ClaimStatement}. */
@Entity
@Immutable
@Table(name = "operation_attempt")
class Attempt {

    @Id
    private Long id;

    @Column(name = "operation_ref")
    private Long operationRef;

    private String outcome;

    @Column(name = "received_at")
    private Instant receivedAt;

    @Column(name = "request_id")
    private UUID requestId;

    @Column(name = "user_agent")
    private String userAgent;

    @Column(name = "client_address", columnDefinition = "inet")
    private String clientAddress;

    @Column(name = "attest_key_id")
    private byte[] attestKeyId;

    @Column(name = "assertion_counter")
    private Long assertionCounter;

    @Enumerated(EnumType.STRING)
    private AttemptChannel channel;

    protected Attempt() {
        // for JPA
    }

    AttemptRecord toRecord() {
        return new AttemptRecord(outcome, receivedAt, requestId, userAgent, clientAddress,
                attestKeyId == null ? null : Base64.getEncoder().encodeToString(attestKeyId), assertionCounter,
                channel);
    }
}
