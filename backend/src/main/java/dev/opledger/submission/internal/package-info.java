/** The submission sequence's meters. */
@NullMarked
package dev.opledger.submission.internal;

import org.jspecify.annotations.NullMarked;
