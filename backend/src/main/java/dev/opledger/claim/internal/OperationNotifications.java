package dev.opledger.claim.internal;

import dev.opledger.claim.OperationAccepted;
import dev.opledger.claim.OperationState;
import dev.opledger.notification.AfterCommit;
import dev.opledger.notification.DatabaseNotifications;
import dev.opledger.notification.NotificationSubscriber;
import dev.opledger.operation.OperationId;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/**
 * What the claim stage tells every node, and hears from every node, through
 * {@link DatabaseNotifications}: {@value #ACCEPTED} (an operation became ACCEPTED, so an idle
 * worker anywhere leases it now rather than at its next poll; the payload names the sending node,
 * whose own worker was already told in-process) and {@value #SETTLED} (the operationId of one that
 * ended or now needs a person, for the requests waiting on it with {@code Prefer: wait}).
 */
@Component
public class OperationNotifications implements NotificationSubscriber {

    public static final String ACCEPTED = "opledger_operation_accepted";
    public static final String SETTLED = "opledger_operation_settled";
    private static final Logger log = LoggerFactory.getLogger(OperationNotifications.class);

    private final String self = UUID.randomUUID().toString();
    private final DatabaseNotifications notifications;
    private final SettleWaiters waiters;
    private final ApplicationEventPublisher events;

    OperationNotifications(DatabaseNotifications notifications, SettleWaiters waiters, ApplicationEventPublisher events) {
        this.notifications = notifications;
        this.waiters = waiters;
        this.events = events;
    }

    /** An operation became ACCEPTED here: this node's worker now, every other node's by notification. */
    public void accepted() {
        events.publishEvent(new OperationAccepted());
        notifications.publish(ACCEPTED, self);
    }

    /**
     * An operation settled here: its waiters here now (once the current transaction commits, when
     * there is one: a worker's end of a run can commit with the writes its run held, and a waiter
     * answered inside it would be shown an end not committed yet, or never), every other node's by
     * notification.
     */
    public void settled(OperationId operationId) {
        AfterCommit.run(() -> waiters.settled(operationId));
        notifications.publish(SETTLED, operationId.toString());
    }

    /** As {@link #settled(OperationId)}, with its state as the change committed it: the waiters here need no read. */
    public void settled(OperationState state) {
        AfterCommit.run(() -> waiters.settled(state));
        notifications.publish(SETTLED, state.operationId().toString());
    }

    @Override
    public Set<String> channels() {
        return Set.of(ACCEPTED, SETTLED);
    }

    @Override
    public void received(String channel, String payload) {
        if (ACCEPTED.equals(channel)) {
            if (!self.equals(payload)) {
                events.publishEvent(new OperationAccepted());
            }
        } else if (SETTLED.equals(channel)) {
            try {
                waiters.settled(OperationId.parse(payload));
            } catch (IllegalArgumentException e) {
                log.warn("unreadable notification on {}: {}", SETTLED, payload);
            }
        }
    }

    // What was sent while this node did not listen is lost: waiters read again, workers lease again.
    @Override
    public void listening(boolean listening) {
        if (listening) {
            waiters.checkAll();
            events.publishEvent(new OperationAccepted());
        }
    }
}
