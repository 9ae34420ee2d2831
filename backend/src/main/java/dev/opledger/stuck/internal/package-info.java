/** The stuck-task queries: plain SQL over the ledger's tables, read-only. */
@NullMarked
package dev.opledger.stuck.internal;

import org.jspecify.annotations.NullMarked;
