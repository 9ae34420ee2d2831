package dev.opledger.claim;

import dev.opledger.operation.Command;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;

/** One attempt to claim an operation: who, which operation, what command, and how it arrived. */
public record ClaimRequest(SubjectId subject, OperationId operationId, Command command, AttemptContext attempt) {
}
