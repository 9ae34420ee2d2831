/** A load driver for the attested path, to compare App Attest required with off in one run. */
@NullMarked
package dev.opledger.cli.load;

import org.jspecify.annotations.NullMarked;
