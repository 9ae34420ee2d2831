package dev.opledger.e2e;

import dev.opledger.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Starts the production jar ({@code opledger.node.jar}) once per test class as a child process
 * with the same JDK, profile {@code local} (App Attest required, the CLI's development root
 * trusted; reference-tools embedded on a free port), a free port, the test JVM's own database and
 * the class's {@link NodeArguments}; waits until it is ready; stops it after the class, whatever
 * happened. Its output goes to {@code target/node-<port>.log}, whose tail is printed when a test
 * fails.
 */
public class NodeExtension implements BeforeAllCallback, AfterAllCallback, AfterTestExecutionCallback,
        ParameterResolver {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    private static final int TAIL_LINES = 80;
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(NodeExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        var database = TestDatabase.shared();
        List<String> arguments = new ArrayList<>(List.of(
                "--spring.datasource.url=" + database.url(),
                "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password(),
                // the local profile embeds reference-tools on 8091: any free port instead, so test
                // nodes never meet each other or a node someone runs on this machine
                "--opledger.reference-tools.port=0"));
        context.getTestClass().map(type -> type.getAnnotation(NodeArguments.class))
                .ifPresent(extra -> arguments.addAll(List.of(extra.value())));
        context.getStore(NAMESPACE).put(ChildNode.class, NodeProcess.startReady("node", NodeProcess.jar(), List.of(),
                List.of(), READY_TIMEOUT, arguments.toArray(String[]::new)));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        var started = context.getStore(NAMESPACE).remove(ChildNode.class, ChildNode.class);
        if (started != null) {
            started.close();
        }
    }

    @Override
    public void afterTestExecution(ExtensionContext context) {
        if (context.getExecutionException().isPresent()) {
            started(context).ifPresent(started -> System.err.println("--- " + context.getDisplayName()
                    + " failed; the node's last output (" + started.node().log() + "):\n"
                    + started.node().logTail(TAIL_LINES)));
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == RunningNode.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return started(context).orElseThrow(() -> new IllegalStateException("no node was started")).node();
    }

    private static Optional<ChildNode> started(ExtensionContext context) {
        return Optional.ofNullable(context.getStore(NAMESPACE).get(ChildNode.class, ChildNode.class));
    }
}
