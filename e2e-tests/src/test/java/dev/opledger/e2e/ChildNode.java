package dev.opledger.e2e;

import dev.opledger.testing.ApiClient;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** A node running as a child process of the test JVM, from {@link NodeProcess#startReady}. */
record ChildNode(Process process, RunningNode node) implements AutoCloseable {

    /** How the ids of this node's workers in the ledger start: the JVM's {@code <pid>@<host>}. */
    String workerIdPrefix() {
        return process.pid() + "@";
    }

    ApiClient api() {
        return new ApiClient(node.base());
    }

    /** Its exit status once it ended within {@code timeout}; fails if it is still running then. */
    int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("node " + node.base() + " (pid " + process.pid() + ") still runs after " + timeout
                    + "; its last output:\n" + node.logTail(40));
        }
        return process.exitValue();
    }

    /** SIGKILL, as a machine or the OOM killer ends a node: no shutdown, nothing handed over. */
    int kill() throws InterruptedException {
        process.destroyForcibly();
        return process.waitFor();
    }

    /** Stops it gracefully (then forcibly), whatever state it is in. */
    @Override
    public void close() {
        NodeProcess.stop(process);
    }
}
