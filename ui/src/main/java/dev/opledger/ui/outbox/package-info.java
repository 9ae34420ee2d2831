/** The outbox: how far the relay is behind, and which node holds it. */
@NullMarked
package dev.opledger.ui.outbox;

import org.jspecify.annotations.NullMarked;
