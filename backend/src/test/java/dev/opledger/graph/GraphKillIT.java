package dev.opledger.graph;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.operation.OperationId;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.TestDatabase;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A node JVM killed with SIGKILL in the middle of a node, and the thread finished by another
 * JVM from what PostgreSQL holds: the killed node runs again from its start, the finished one
 * does not.
 */
@NodeIntegrationTest
class GraphKillIT {

    @Autowired
    GraphService graphs;

    @Autowired
    DataSource dataSource;

    @Test
    void aNodeKilledMidWayRunsAgainFromItsStartInAnotherProcess() throws Exception {
        var operation = OperationId.random();
        var database = TestDatabase.shared();
        var child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), NodeProcess.class.getName(),
                database.url(), database.username(), database.password(), operation.toString())
                .redirectErrorStream(true)
                .start();
        List<String> started = new ArrayList<>();
        try (var output = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while (!started.contains("capture") && (line = output.readLine()) != null) {
                if (line.startsWith(NodeProcess.STARTED)) {
                    started.add(line.substring(NodeProcess.STARTED.length()));
                }
            }
            child.destroyForcibly(); // SIGKILL: no shutdown hook, no finally, no last checkpoint
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            child.destroyForcibly();
        }
        assertThat(started).containsExactly("reserve", "capture");
        assertThat(child.exitValue()).isEqualTo(137);
        assertThat(graphs.history(operation)).extracting(CheckpointEntry::nextNodeId).containsExactly("capture", "reserve");

        var thisNode = new CheckoutLikeGraph();
        var outcome = graphs.runner(thisNode.build(), GraphOptions.none()).run(operation, Map.of());

        assertThat(outcome).isInstanceOf(RunOutcome.Completed.class);
        assertThat(outcome.state()).containsEntry("sku", "child-JVM").containsEntry("captured", true);
        assertThat(List.of(thisNode.starts("reserve"), thisNode.starts("capture"), thisNode.starts("receipt")))
                .containsExactly(0, 1, 1);
    }
}
