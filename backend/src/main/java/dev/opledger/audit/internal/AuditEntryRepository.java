package dev.opledger.audit.internal;

import org.springframework.data.repository.Repository;

public interface AuditEntryRepository extends Repository<AuditEntry, Long> {

    AuditEntry save(AuditEntry entry);
}
