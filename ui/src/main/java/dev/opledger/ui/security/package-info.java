/** Sign-in for the console: the session-based filter chain and the login view. */
@NullMarked
package dev.opledger.ui.security;

import org.jspecify.annotations.NullMarked;
