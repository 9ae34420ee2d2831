/**
 * The effect log: one row per real effect (a state change), with the tool, the operation and
 * step that caused it, the idempotency key if any, and a digest of the arguments. Tests count
 * effects here; a replayed keyed call or an idempotent repeat that changes nothing adds no row.
 */
@NullMarked
package dev.opledger.tools.effect;

import org.jspecify.annotations.NullMarked;
