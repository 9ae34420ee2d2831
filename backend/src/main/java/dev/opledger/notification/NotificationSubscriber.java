package dev.opledger.notification;

import java.util.Set;

/**
 * A bean that receives the notifications of its {@link #channels()} from
 * {@link DatabaseNotifications}. Its methods are called on the node's one listening thread: they
 * must return quickly (hand any database work to another thread).
 */
public interface NotificationSubscriber {

    /** The channels it listens on; fixed for the bean's life. */
    Set<String> channels();

    /** One notification on one of its channels, after the transaction that sent it committed. */
    void received(String channel, String payload);

    /**
     * True once the node listens (again) on its channels: notifications sent while it did not were
     * lost, so anything they would have said must be read again. False when it stopped listening:
     * until it is true again, nothing is received.
     */
    default void listening(boolean listening) {
    }
}
