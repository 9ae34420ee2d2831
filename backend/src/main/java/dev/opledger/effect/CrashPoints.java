package dev.opledger.effect;

/**
 * Test-only crash injection for points outside the effect gateway (the gateway's own are
 * internal): with {@code opledger.test.crash-at=<point>@<stepKey>} the JVM halts there as a
 * SIGKILL would. Does nothing unless that property names the point; unset in every real
 * configuration.
 */
public interface CrashPoints {

    /**
     * The graph paused at {@code stepKey} waiting for a person's decision, and the operation's
     * status does not say so yet ({@code awaiting-approval@<stepKey>}).
     */
    void awaitingApproval(String stepKey);
}
