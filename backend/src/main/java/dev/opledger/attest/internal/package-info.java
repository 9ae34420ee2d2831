/** Byte layouts, certificate checks and tables of the attest stage. */
@NullMarked
package dev.opledger.attest.internal;

import org.jspecify.annotations.NullMarked;
