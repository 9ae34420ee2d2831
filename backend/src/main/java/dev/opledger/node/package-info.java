/**
 * What every node needs regardless of stage: finding its database, securing the actuator, and
 * the console's users. No stage depends on it.
 */
@NullMarked
package dev.opledger.node;

import org.jspecify.annotations.NullMarked;
