package dev.opledger.tools.wrap;

import dev.opledger.tools.toolkit.InputSchema;
import dev.opledger.tools.toolkit.RepeatClass;
import dev.opledger.tools.toolkit.TaskTool;
import dev.opledger.tools.toolkit.ToolArguments;
import dev.opledger.tools.toolkit.ToolDescriptor;
import dev.opledger.tools.toolkit.ToolHints;
import dev.opledger.tools.toolkit.ToolOutcome;
import java.time.Duration;
import java.util.Map;
import org.springframework.beans.factory.annotation.Value;

/**
 * Keyed, long-running: wrapping takes {@code reference-tools.wrap-gift.duration} (3 s by default),
 * so a call answers with a task; the wrap is made (and logged as the effect) when the task ends.
 */
class WrapGiftTool implements TaskTool {

    static final String NAME = "wrap_gift";

    private static final ToolDescriptor DESCRIPTOR = new ToolDescriptor(NAME, "Wrap a gift",
            "Gift-wraps the items of an order. Takes seconds: answers with a task (MCP tasks extension, "
                    + "required), which can be cancelled until the wrap is made. With an idempotencyKey, a repeat "
                    + "returns the same task; the same key with other arguments is an error.",
            InputSchema.forOperationStep()
                    .required("orderId", InputSchema.text("The order"))
                    .required("sku", InputSchema.text("The product wrapped"))
                    .required("quantity", Map.of("type", "integer", "minimum", 1))
                    .optional("idempotencyKey", InputSchema.text("Makes a repeat return the first call's task")),
            ToolHints.write(false, false), RepeatClass.KEYED)
            .withMeta(ToolDescriptor.IDEMPOTENCY_KEY_ARGUMENT, "idempotencyKey");

    private final GiftWraps wraps;
    private final Duration duration;

    WrapGiftTool(GiftWraps wraps, @Value("${reference-tools.wrap-gift.duration:3s}") Duration duration) {
        this.wraps = wraps;
        this.duration = duration;
    }

    @Override
    public ToolDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Duration duration() {
        return duration;
    }

    @Override
    public void check(ToolArguments arguments) {
        arguments.text("orderId");
        arguments.text("sku");
        arguments.positiveInteger("quantity");
    }

    @Override
    public ToolOutcome finish(ToolArguments arguments) {
        return wraps.wrap(arguments);
    }
}
