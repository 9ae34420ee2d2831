/**
 * The HTTP edge for the app: {@code /v1/**}, stateless, bearer JWT. Turns requests into calls
 * on the stages' façades and their outcomes into status codes and RFC 9457 problem details.
 */
@NullMarked
package dev.opledger.api;

import org.jspecify.annotations.NullMarked;
