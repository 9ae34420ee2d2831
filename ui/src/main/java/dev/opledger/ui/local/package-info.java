/**
 * The local run's own parts, apart from the console's views: reference-tools started inside the
 * node ({@code opledger.reference-tools.embedded=true}, the local profile's default), so
 * {@code ./opledger run} runs an operation's whole path, tools included.
 */
@NullMarked
package dev.opledger.ui.local;

import org.jspecify.annotations.NullMarked;
