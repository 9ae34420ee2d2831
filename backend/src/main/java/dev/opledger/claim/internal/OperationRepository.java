package dev.opledger.claim.internal;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.data.repository.Repository;

interface OperationRepository extends Repository<Operation, Long> {

    Optional<Operation> findBySubjectIdAndOperationId(String subjectId, UUID operationId);

    /** At most one: an operationId is unique across subjects (changelog claim/008). */
    Optional<Operation> findByOperationId(UUID operationId);

    List<Operation> findByIdIn(List<Long> ids);
}
