/**
 * PostgreSQL LISTEN/NOTIFY for the whole node, on one held connection:
 * {@link dev.opledger.notification.DatabaseNotifications} delivers each channel's notifications to
 * the {@link dev.opledger.notification.NotificationSubscriber} beans that declare it, and sends
 * notifications after the sending transaction commits, coalesced on one connection. Notifications
 * are a wake-up, never the record: whoever receives one reads the database, and whoever may have
 * missed some (the connection was lost) is told so and reads it again.
 */
@NullMarked
package dev.opledger.notification;

import org.jspecify.annotations.NullMarked;
