package dev.opledger.mcp.internal;

import java.net.http.HttpClient;

/**
 * The JDK HttpClient under both revisions' HTTP transports.
 *
 * <p>The client runs a step inline unless it is on its selector thread, where it hands the step to
 * its executor: by default a pool of its own, so every response was read on the selector thread,
 * then parsed and delivered on a pool thread. This executor runs those steps on the selector
 * thread as well, one hand-off fewer per response. That is safe because nothing blocks there: the
 * SDK's transports only parse the body and pass the messages on, the caller waits for them on its
 * own (virtual) thread, and the client completes {@code sendAsync}'s future on the common pool, not
 * on the selector thread. Measured in the checkout benchmark (issue 13, docs/benchmarks.md
 * "The MCP client's executor"): the node's CPU per checkout less its JIT 1.1–2.1 ms lower, the MCP
 * client's own threads 0.6–0.9 ms lower, 12–19 % more checkouts a second, in each of three alternated pairs;
 * an executor of virtual threads did less well.
 */
final class McpHttpClients {

    private McpHttpClients() {
    }

    static void configure(HttpClient.Builder client) {
        client.executor(Runnable::run);
    }
}
