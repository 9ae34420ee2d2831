package dev.opledger.mcp;

/**
 * What a {@code tools/call} that allows a task ({@link ToolClient#callAllowingTask}) was answered
 * with: the tool's reply, or a task of the server's (MCP tasks extension) whose outcome is read
 * with {@link ToolClient#task}.
 */
public sealed interface ToolAnswer {

    record Replied(ToolReply reply) implements ToolAnswer {
    }

    record TaskStarted(DownstreamTask task) implements ToolAnswer {
    }
}
