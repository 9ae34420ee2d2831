/**
 * Every state change of an operation as one event on Kafka. The statements that change state
 * (claim, lifecycle, effects) write an outbox row with {@link dev.opledger.outbox.OutboxRow} in
 * the same statement; the relay ({@code internal}) publishes the rows with a transactional
 * producer, one relay at a time, elected and fenced through PostgreSQL. Contract:
 * {@code docs/events.md}.
 */
@NullMarked
package dev.opledger.outbox;

import org.jspecify.annotations.NullMarked;
