/** The server's own PostgreSQL schema, made before Liquibase fills it. */
@NullMarked
package dev.opledger.tools.database;

import org.jspecify.annotations.NullMarked;
