package dev.opledger.ui;

import com.vaadin.flow.component.notification.Notification;
import com.vaadin.flow.component.notification.NotificationVariant;

/**
 * What a person's action in the console came to, told at the top of the page for long enough to
 * read: green when it changed what was asked, amber when nothing changed (someone was first, or
 * the thing is no longer in the state the page showed).
 */
public final class ActionNotification {

    private static final int NOTIFICATION_MILLIS = 8000;

    private ActionNotification() {
    }

    public static void show(String id, String message, boolean changed) {
        var notification = Notification.show(message, NOTIFICATION_MILLIS, Notification.Position.TOP_CENTER);
        notification.setId(id);
        notification.addThemeVariants(changed ? NotificationVariant.SUCCESS : NotificationVariant.WARNING);
    }
}
