/**
 * The effect gateway: every tool call of an operation is an effect keyed (operation, step),
 * recorded STARTED before the call and SUCCEEDED/FAILED after it, and repeated only as the tool's
 * repeat class allows (seed 001: classify, key, check before writing, never repeat blindly).
 * {@link dev.opledger.effect.EffectLedger} reads the records for the console.
 */
@NullMarked
package dev.opledger.effect;

import org.jspecify.annotations.NullMarked;
