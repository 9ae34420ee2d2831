package dev.opledger.tools.toolkit;

/** One tool of the server: what it is, and what a call does. */
public interface ReferenceTool {

    ToolDescriptor descriptor();

    /**
     * Runs the call. Any effect is committed before this returns; a refused call changes nothing.
     *
     * @throws InvalidArgumentException when the arguments do not fit the input schema
     */
    ToolOutcome call(ToolArguments arguments);

    default String name() {
        return descriptor().name();
    }
}
