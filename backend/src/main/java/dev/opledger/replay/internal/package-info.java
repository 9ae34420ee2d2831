/** The replay stage's table ({@code operation_replay}) and the dry run's digest. */
@NullMarked
package dev.opledger.replay.internal;

import org.jspecify.annotations.NullMarked;
