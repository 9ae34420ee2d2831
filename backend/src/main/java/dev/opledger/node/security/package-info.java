/** Who may use the console and the actuator, and which role includes which. */
@NullMarked
package dev.opledger.node.security;

import org.jspecify.annotations.NullMarked;
