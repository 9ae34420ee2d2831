/** The console's audit log: everything a person does in the console, and every sign-in attempt. */
@NullMarked
package dev.opledger.audit;

import org.jspecify.annotations.NullMarked;
