/** Tables, statements and entities of the claim stage; nothing outside {@code claim} uses them. */
@NullMarked
package dev.opledger.claim.internal;

import org.jspecify.annotations.NullMarked;
