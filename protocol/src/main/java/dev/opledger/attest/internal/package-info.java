/** Byte layouts and certificate checks of App Attest, the verifier's internals. */
@NullMarked
package dev.opledger.attest.internal;

import org.jspecify.annotations.NullMarked;
