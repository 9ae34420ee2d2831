/**
 * The protocol's half of App Attest (module {@code protocol}): the client data a device signs for
 * an attempt or a key registration, the app id, and the stateless verifier of attestations and
 * assertions that the node and the CLI's offline {@code verify} share. The node adds the
 * {@code AttestService} façade, challenges and stored keys to this package (module {@code backend}).
 */
@NullMarked
package dev.opledger.attest;

import org.jspecify.annotations.NullMarked;
