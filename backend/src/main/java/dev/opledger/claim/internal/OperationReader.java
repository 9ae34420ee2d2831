package dev.opledger.claim.internal;

import dev.opledger.claim.ConflictRecord;
import dev.opledger.claim.LedgerFilter;
import dev.opledger.claim.OperationDetail;
import dev.opledger.claim.OperationState;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import jakarta.persistence.EntityManager;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Reads the ledger. Lists never count: the console pages lazily by offset through indexes that
 * return rows newest first (primary key, or status + id), so a page costs the same with a
 * million rows as with a hundred.
 */
@Component
@Transactional(readOnly = true)
public class OperationReader {

    private final EntityManager entityManager;
    private final OperationRepository operations;
    private final AttemptRepository attempts;
    private final KeyReuseConflictRepository conflicts;

    OperationReader(EntityManager entityManager, OperationRepository operations, AttemptRepository attempts,
            KeyReuseConflictRepository conflicts) {
        this.entityManager = entityManager;
        this.operations = operations;
        this.attempts = attempts;
        this.conflicts = conflicts;
    }

    public Optional<OperationState> find(SubjectId subject, OperationId operationId) {
        return operations.findBySubjectIdAndOperationId(subject.value(), operationId.value()).map(Operation::toState);
    }

    /** Whichever subject's it is: an operationId is unique across subjects. */
    public Optional<OperationState> find(OperationId operationId) {
        return operations.findByOperationId(operationId.value()).map(Operation::toState);
    }

    /**
     * The subject's operation's status as committed now: a query, never an entity this
     * transaction already read (a statement may have changed the row since).
     */
    public Optional<OperationStatus> status(SubjectId subject, OperationId operationId) {
        return entityManager.createQuery("SELECT o.status FROM Operation o WHERE o.subjectId = :subject "
                        + "AND o.operationId = :operationId", OperationStatus.class)
                .setParameter("subject", subject.value())
                .setParameter("operationId", operationId.value())
                .getResultStream()
                .findFirst();
    }

    public List<OperationState> page(LedgerFilter filter, int offset, int limit) {
        var jpql = new StringBuilder("SELECT o FROM Operation o WHERE 1 = 1");
        Map<String, Object> parameters = new HashMap<>();
        if (filter.status() != null) {
            jpql.append(" AND o.status = :status");
            parameters.put("status", filter.status());
        }
        if (filter.subject() != null) {
            jpql.append(" AND o.subjectId = :subject");
            parameters.put("subject", filter.subject().value());
        }
        if (filter.operationId() != null) {
            jpql.append(" AND o.operationId = :operationId");
            parameters.put("operationId", filter.operationId().value());
        }
        jpql.append(" ORDER BY o.id DESC");
        var query = entityManager.createQuery(jpql.toString(), Operation.class)
                .setFirstResult(offset)
                .setMaxResults(limit);
        parameters.forEach(query::setParameter);
        return query.getResultList().stream().map(Operation::toState).toList();
    }

    public Optional<OperationDetail> detail(SubjectId subject, OperationId operationId) {
        return operations.findBySubjectIdAndOperationId(subject.value(), operationId.value()).map(this::detail);
    }

    /** Whichever subject's it is: an operationId is unique across subjects. */
    public Optional<OperationDetail> detail(OperationId operationId) {
        return operations.findByOperationId(operationId.value()).map(this::detail);
    }

    private OperationDetail detail(Operation operation) {
        return new OperationDetail(
                operation.toState(),
                operation.statusReason(),
                operation.attested(),
                operation.canonicalCommand(),
                attempts.findByOperationRefOrderByIdAsc(operation.id()).stream().map(Attempt::toRecord).toList(),
                conflicts.findByOperationRefOrderByIdDesc(operation.id()).stream()
                        .map(conflict -> conflict.toRecord(operation)).toList());
    }

    public List<ConflictRecord> conflicts(int offset, int limit) {
        List<KeyReuseConflict> page = entityManager
                .createQuery("SELECT c FROM KeyReuseConflict c ORDER BY c.id DESC", KeyReuseConflict.class)
                .setFirstResult(offset)
                .setMaxResults(limit)
                .getResultList();
        Map<Long, Operation> byId = operations.findByIdIn(page.stream().map(KeyReuseConflict::operationRef).distinct().toList())
                .stream().collect(Collectors.toMap(Operation::id, Function.identity()));
        return page.stream().map(conflict -> conflict.toRecord(byId.get(conflict.operationRef()))).toList();
    }
}
