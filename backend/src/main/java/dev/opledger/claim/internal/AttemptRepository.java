package dev.opledger.claim.internal;

import java.util.List;
import org.springframework.data.repository.Repository;

interface AttemptRepository extends Repository<Attempt, Long> {

    List<Attempt> findByOperationRefOrderByIdAsc(Long operationRef);
}
