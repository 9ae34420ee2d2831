/**
 * Support staff resolving an operation parked in NEEDS_REVIEW because a call's outcome is
 * unknown: they say what they found downstream ({@link dev.opledger.effect.EffectResolution}), and
 * {@link dev.opledger.review.ReviewService} (role-checked and audited) records it on the effect
 * and hands the operation back to the workers, in one transaction.
 */
@NullMarked
package dev.opledger.review;

import org.jspecify.annotations.NullMarked;
