package dev.opledger.e2e;

import dev.opledger.testing.ApiClient;
import java.io.IOException;
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

    /** SIGSTOP: the JVM stalls as in a long GC pause or a partition, every thread at once, its sockets open. */
    void suspend() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** SIGCONT after {@link #suspend}: every thread goes on where it stopped, unaware of the time passed. */
    void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String signal) throws IOException, InterruptedException {
        int status = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start().waitFor();
        if (status != 0) {
            throw new IllegalStateException("kill -" + signal + " " + process.pid() + " exited with " + status);
        }
    }

    /** Stops it gracefully (then forcibly), whatever state it is in. */
    @Override
    public void close() {
        try {
            resume(); // a suspended JVM would not stop on SIGTERM
        } catch (IOException | RuntimeException e) {
            // it has exited already
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        NodeProcess.stop(process);
    }
}
