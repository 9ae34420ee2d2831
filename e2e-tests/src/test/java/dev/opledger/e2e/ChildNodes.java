package dev.opledger.e2e;

import dev.opledger.node.database.LocatedDatabase;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Nodes a test starts as it goes (register it as an instance field with
 * {@code @RegisterExtension}): each from the extracted jar, profile {@code local}, on the database
 * given; all of them are stopped after the test, and when it failed their last output is printed.
 */
final class ChildNodes implements AfterTestExecutionCallback, AfterEachCallback {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    private static final int TAIL_LINES = 60;

    private final List<ChildNode> started = new ArrayList<>();

    /** Starts a node and waits until it is ready; {@code name} names its log file. Safe to call from several threads. */
    ChildNode start(String name, LocatedDatabase database, List<String> arguments)
            throws IOException, InterruptedException {
        List<String> all = new ArrayList<>(List.of(
                "--spring.datasource.url=" + database.url(),
                "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password()));
        all.addAll(arguments);
        ChildNode node = NodeProcess.startReady(name, NodeProcess.extractedJar(), List.of(), List.of(), READY_TIMEOUT,
                all.toArray(String[]::new));
        synchronized (started) {
            started.add(node);
        }
        return node;
    }

    @Override
    public void afterTestExecution(ExtensionContext context) {
        if (context.getExecutionException().isPresent()) {
            synchronized (started) {
                for (ChildNode node : started) {
                    System.err.println("--- " + context.getDisplayName() + " failed; the last output of node pid "
                            + node.process().pid() + " (" + node.node().log() + "):\n" + node.node().logTail(TAIL_LINES));
                }
            }
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        synchronized (started) {
            started.forEach(ChildNode::close);
            started.clear();
        }
    }
}
