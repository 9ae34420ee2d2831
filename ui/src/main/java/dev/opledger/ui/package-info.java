/**
 * The console: Vaadin views for the people who look after opledger. Views inject one stage
 * façade each ({@link dev.opledger.claim.LedgerService}, {@link dev.opledger.attest.AttestService})
 * and show its records; they never see repositories or entities. The façades enforce the roles
 * again on the server side.
 */
@NullMarked
package dev.opledger.ui;

import org.jspecify.annotations.NullMarked;
