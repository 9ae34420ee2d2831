/**
 * App Attest bound to the retry identity (docs/design/PROTOCOL.md): device keys registered with
 * an attestation, one single-use challenge per attempt, and an assertion over
 * {@code challenge ‖ operationId ‖ payloadHash} verified before the claim.
 * {@link dev.opledger.attest.AttestService} is the façade; {@link dev.opledger.attest.AppAttestVerifier}
 * (with ClientData, AppId and the trust roots) comes from module {@code protocol}, in this same
 * package, and is the stateless verifier the CLI's offline {@code verify} shares.
 */
@NullMarked
package dev.opledger.attest;

import org.jspecify.annotations.NullMarked;
