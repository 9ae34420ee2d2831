package dev.opledger.tools.message;

import org.springframework.context.annotation.Import;

/**
 * The parts of send_message, for the application to import. Not a component, so an application
 * that scans {@code dev.opledger} never picks the tools up by accident.
 */
@Import({Messages.class, SendMessageTool.class})
public final class MessageTools {

    MessageTools() {
    }
}
