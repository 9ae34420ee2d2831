/** The relay, its election and the events topic: how outbox rows reach Kafka. */
@NullMarked
package dev.opledger.outbox.internal;

import org.jspecify.annotations.NullMarked;
