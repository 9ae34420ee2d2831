/** The feed's Kafka consumer, its dead-letter topic and its tables. */
@NullMarked
package dev.opledger.feed.internal;

import org.jspecify.annotations.NullMarked;
