/** The operation ledger: a lazy, filterable list of operations and one operation in detail. */
@NullMarked
package dev.opledger.ui.ledger;

import org.jspecify.annotations.NullMarked;
