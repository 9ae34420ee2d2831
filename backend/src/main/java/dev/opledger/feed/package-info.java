/**
 * The activity feed: a consumer of the ledger's events ({@code docs/events.md}) that keeps, per
 * subject, what happened to their operations, for the app to read ({@link
 * dev.opledger.feed.ActivityFeedService}). It reads with {@code isolation.level=read_committed},
 * applies each event once (its entry is unique by eventId: a poll inserts the entries of the events
 * that have none, and the key decides a race between two consumers), and sends a record it cannot
 * read to the dead-letter topic with the reason.
 */
@NullMarked
package dev.opledger.feed;

import org.jspecify.annotations.NullMarked;
