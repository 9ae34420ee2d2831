/**
 * The checkpoint table's statements, the state's JSON form and the saver's memory of where each
 * thread stood; nothing outside {@code graph} uses them.
 */
@NullMarked
package dev.opledger.graph.internal;

import org.jspecify.annotations.NullMarked;
