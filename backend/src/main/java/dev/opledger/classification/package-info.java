/**
 * The repeat class of every tool (idempotent, keyed, check-then-write, never-repeat) and where it
 * came from. Retries and resumes read it before repeating a call.
 */
@NullMarked
package dev.opledger.classification;

import org.jspecify.annotations.NullMarked;
