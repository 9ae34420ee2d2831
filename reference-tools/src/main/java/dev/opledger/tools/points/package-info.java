/**
 * Points: {@code adjust_points} adds a delta to an account's balance (not idempotent: a repeat
 * adds it again) and stores the operation and step with the adjustment; the read tool
 * {@code get_points} tells the balance and whether the adjustment of a given operation and step
 * already landed, so a caller can check, then write.
 */
@NullMarked
package dev.opledger.tools.points;

import org.jspecify.annotations.NullMarked;
