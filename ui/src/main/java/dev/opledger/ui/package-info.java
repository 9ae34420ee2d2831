/**
 * The console: Vaadin views for the people who look after opledger. Views inject stage façades
 * ({@link dev.opledger.claim.LedgerService}, {@link dev.opledger.attest.AttestService},
 * {@link dev.opledger.graph.TimelineService}, {@link dev.opledger.claim.ApprovalService}) and show
 * their records; they never see repositories or entities. The façades enforce the roles again on
 * the server side and audit what changes.
 */
@NullMarked
package dev.opledger.ui;

import org.jspecify.annotations.NullMarked;
