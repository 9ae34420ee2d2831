package dev.opledger.tools.toolkit;

import java.util.Map;

/**
 * A tool as tools/list shows it.
 *
 * @param meta the tool's {@code _meta}: how a caller may repeat it safely (see {@link RepeatClass})
 */
public record ToolDescriptor(String name, String title, String description, Map<String, Object> inputSchema,
        ToolHints hints, Map<String, Object> meta) {

    /** The {@code _meta} key naming the tool's repeat class. */
    public static final String REPEAT_CLASS = "dev.opledger/repeatClass";
    /** The {@code _meta} key naming the argument that carries an idempotency key. */
    public static final String IDEMPOTENCY_KEY_ARGUMENT = "dev.opledger/idempotencyKeyArgument";
    /** The {@code _meta} key naming the read tool that tells whether a write already landed. */
    public static final String CHECK_TOOL = "dev.opledger/checkTool";

    public ToolDescriptor {
        inputSchema = Map.copyOf(inputSchema);
        meta = Map.copyOf(meta);
    }

    public ToolDescriptor(String name, String title, String description, InputSchema inputSchema, ToolHints hints,
            RepeatClass repeatClass) {
        this(name, title, description, inputSchema.asMap(), hints, Map.of(REPEAT_CLASS, repeatClass.label()));
    }

    public ToolDescriptor withMeta(String key, Object value) {
        var merged = new java.util.HashMap<>(meta);
        merged.put(key, value);
        return new ToolDescriptor(name, title, description, inputSchema, hints, merged);
    }
}
