/**
 * Load drivers for the benchmarks: {@link dev.opledger.cli.load.ClaimLoad} claims new operations as
 * fast as its clients can (attested or not), {@link dev.opledger.cli.load.CheckoutLoad} follows
 * each checkout to its end in a closed loop.
 */
@NullMarked
package dev.opledger.cli.load;

import org.jspecify.annotations.NullMarked;
