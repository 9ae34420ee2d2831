/** Bearer tokens for a node in its local profile: HS256 JWTs signed with the shared development secret. */
@NullMarked
package dev.opledger.cli.token;

import org.jspecify.annotations.NullMarked;
