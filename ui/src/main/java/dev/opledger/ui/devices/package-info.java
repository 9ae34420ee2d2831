/**
 * Device keys: the App Attest keys registered to subjects, their counters and use, and (for
 * admins) their revocation through {@link dev.opledger.attest.AttestService}.
 */
@NullMarked
package dev.opledger.ui.devices;

import org.jspecify.annotations.NullMarked;
