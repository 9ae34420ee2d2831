/**
 * Simulated devices kept between commands, one JSON file per device, with the counter they last
 * asserted with and every operation they submitted (its operationId and exact body bytes).
 */
@NullMarked
package dev.opledger.cli.store;

import org.jspecify.annotations.NullMarked;
