/**
 * The effect gateway: every tool call of an operation is an effect keyed (operation, step key:
 * a step's name, with an ordinal for a loop's runs, {@link dev.opledger.effect.StepKey}),
 * recorded STARTED before the call and SUCCEEDED/FAILED after it with the digest of its
 * arguments, and repeated only as the tool's repeat class allows (seed 001: classify, key, check
 * before writing, never repeat blindly), with other arguments only where that cannot duplicate.
 * {@link dev.opledger.effect.EffectLedger} reads the records for the console.
 */
@NullMarked
package dev.opledger.effect;

import org.jspecify.annotations.NullMarked;
