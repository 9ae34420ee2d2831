package dev.opledger.tools.message;

import dev.opledger.tools.toolkit.InputSchema;
import dev.opledger.tools.toolkit.ReferenceTool;
import dev.opledger.tools.toolkit.RepeatClass;
import dev.opledger.tools.toolkit.ToolArguments;
import dev.opledger.tools.toolkit.ToolDescriptor;
import dev.opledger.tools.toolkit.ToolHints;
import dev.opledger.tools.toolkit.ToolOutcome;
import java.util.Map;

/** Never-repeat: no key, no check; a second call is a second message. */
class SendMessageTool implements ReferenceTool {

    static final String NAME = "send_message";

    private static final ToolDescriptor DESCRIPTOR = new ToolDescriptor(NAME, "Send message",
            "Sends a text message to a recipient. Every call sends one more message: there is no "
                    + "idempotency key and no way to ask whether a message went out.",
            InputSchema.forOperationStep()
                    .required("to", InputSchema.text("The recipient, e.g. an e-mail address"))
                    .required("text", InputSchema.text("The message")),
            ToolHints.write(false, false), RepeatClass.NEVER_REPEAT);

    private final Messages messages;

    SendMessageTool(Messages messages) {
        this.messages = messages;
    }

    @Override
    public ToolDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public ToolOutcome call(ToolArguments arguments) {
        SentMessage sent = messages.send(arguments.text("to"), arguments.text("text"), arguments);
        return new ToolOutcome.Success(Map.of(
                "messageId", sent.messageId().toString(),
                "to", sent.recipient(),
                "sentAt", sent.sentAt().toString()),
                "Sent message " + sent.messageId() + " to " + sent.recipient());
    }
}
