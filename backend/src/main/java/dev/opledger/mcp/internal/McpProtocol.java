package dev.opledger.mcp.internal;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Which protocol revision to speak with a server: one of the two, or whichever it speaks. */
public enum McpProtocol {

    /** Probe with {@code server/discover}; fall back to {@code initialize} if the server does not speak it. */
    AUTO("auto"),
    /** The stateless revision: {@code server/discover}, every request carries its own version. */
    MODERN("2026-07-28"),
    /**
     * The revision with the {@code initialize} handshake and a session; the handshake may settle
     * on an older handshake revision the server prefers and the SDK speaks (2025-06-18, 2025-03-26).
     */
    CLASSIC("2025-11-25");

    private final String value;

    McpProtocol(String value) {
        this.value = value;
    }

    /** As written in configuration and on the wire ({@code auto}, {@code 2026-07-28}, {@code 2025-11-25}). */
    public String value() {
        return value;
    }

    public static McpProtocol of(String value) {
        String wanted = value.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(protocol -> protocol.value.equals(wanted)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown MCP protocol '" + value + "': use one of "
                        + Arrays.stream(values()).map(McpProtocol::value).collect(Collectors.joining(", "))));
    }

    @Override
    public String toString() {
        return value;
    }
}
