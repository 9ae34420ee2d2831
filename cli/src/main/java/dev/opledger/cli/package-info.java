/**
 * The opledger command line: a simulated App Attest device that registers with a node and
 * submits operations by the protocol's bytes (docs/design/PROTOCOL.md), and an offline verifier
 * that runs the node's own {@link dev.opledger.attest.AppAttestVerifier}.
 */
@NullMarked
package dev.opledger.cli;

import org.jspecify.annotations.NullMarked;
