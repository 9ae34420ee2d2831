/**
 * Fault injection: {@code delay:<ms>} (sleep before the call), {@code fail} (a tool error, no
 * effect) and {@code drop-response} (the effect commits, then the connection is closed without
 * an answer). Faults come from configuration ({@code reference-tools.faults.<tool>}), from the
 * launcher at run time, or per request from the {@value dev.opledger.tools.fault.Faults#HEADER}
 * header.
 */
@NullMarked
package dev.opledger.tools.fault;

import org.jspecify.annotations.NullMarked;
