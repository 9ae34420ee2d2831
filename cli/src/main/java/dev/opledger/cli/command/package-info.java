/**
 * The picocli commands: {@code token}, {@code device create}, {@code submit}, {@code retry},
 * {@code show} and {@code verify attestation|assertion}. Each reads its options, calls the device,
 * store, HTTP or verifier code, prints, and returns 0 (done), 1 (refused or failed) or 2 (usage).
 */
@NullMarked
package dev.opledger.cli.command;

import org.jspecify.annotations.NullMarked;
