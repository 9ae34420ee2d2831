/**
 * The claim: {@code (subject, operationId, payloadHash)} made unique in PostgreSQL before any
 * execution starts. {@link dev.opledger.claim.ClaimService} is the write side used by the API;
 * {@link dev.opledger.claim.LedgerService} is the read side used by the console;
 * {@link dev.opledger.claim.LifecycleService} makes every status change (its public methods are the
 * workers' lease, heartbeat and finish), and {@link dev.opledger.claim.ApprovalService} is the only
 * way to a person's approve and reject (role-checked and audited); {@link dev.opledger.claim.CancelService}
 * is the only way to a cancel (subject-scoped for the API and MCP, role-checked and audited for staff).
 */
@NullMarked
package dev.opledger.claim;

import org.jspecify.annotations.NullMarked;
