package dev.opledger.audit.internal;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

@Entity
@Table(name = "console_audit")
public class AuditEntry {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "occurred_at", nullable = false)
    private Instant occurredAt;

    @Column(nullable = false)
    private String actor;

    @Column(nullable = false)
    private String action;

    private @Nullable String target;

    private @Nullable String detail;

    @Column(name = "client_address")
    private @Nullable String clientAddress;

    protected AuditEntry() {
        // for JPA
    }

    public AuditEntry(String actor, String action, @Nullable String target, @Nullable String detail,
            @Nullable String clientAddress) {
        this.occurredAt = Instant.now();
        this.actor = actor;
        this.action = action;
        this.target = target;
        this.detail = detail;
        this.clientAddress = clientAddress;
    }
}
