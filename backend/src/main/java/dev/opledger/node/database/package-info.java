/** Finds the node's PostgreSQL: configured, else the local server, else an embedded one. */
@NullMarked
package dev.opledger.node.database;

import org.jspecify.annotations.NullMarked;
