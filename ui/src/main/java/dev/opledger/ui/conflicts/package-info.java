/** Key-reuse conflicts: requests that offered another payload under an operationId already claimed. */
@NullMarked
package dev.opledger.ui.conflicts;

import org.jspecify.annotations.NullMarked;
