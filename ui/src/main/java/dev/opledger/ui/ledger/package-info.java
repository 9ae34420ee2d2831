/**
 * The operation ledger: a lazy, filterable list of operations, and one operation in detail with
 * its timeline, effect records and, while it awaits approval, the approve and reject decision.
 */
@NullMarked
package dev.opledger.ui.ledger;

import org.jspecify.annotations.NullMarked;
