package dev.opledger.claim.internal;

import java.util.List;
import org.springframework.data.repository.Repository;

interface KeyReuseConflictRepository extends Repository<KeyReuseConflict, Long> {

    List<KeyReuseConflict> findByOperationRefOrderByIdDesc(Long operationRef);
}
