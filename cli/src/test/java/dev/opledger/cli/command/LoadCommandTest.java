package dev.opledger.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code load} refuses before it sends anything (the loads themselves: {@code dev.opledger.cli.load}). */
class LoadCommandTest {

    @TempDir
    Path home;

    @Test
    void checkoutModeIsNeverAttested() throws Exception {
        try (var node = FakeNode.start()) {
            var run = CliRun.run(CliRun.context(home), "load", "--server", node.uri().toString(), "--mode", "checkout",
                    "--attested");

            assertThat(run.exitCode()).isEqualTo(2);
            assertThat(run.err()).contains("--attested is for --mode claim only");
            assertThat(node.requests).isEmpty();
        }
    }

    @Test
    void duplicatesAreNeverAttestedNorCheckouts() throws Exception {
        try (var node = FakeNode.start()) {
            for (String mode : new String[] {"checkout", "claim --attested"}) {
                var args = new java.util.ArrayList<>(java.util.List.of("load", "--server", node.uri().toString(),
                        "--duplicates", "--mode"));
                args.addAll(java.util.List.of(mode.split(" ")));
                var run = CliRun.run(CliRun.context(home), args.toArray(String[]::new));

                assertThat(run.exitCode()).isEqualTo(2);
                assertThat(run.err()).contains("--duplicates is for --mode claim without --attested, and --mode mcp");
            }
            assertThat(node.requests).isEmpty();
        }
    }

    @Test
    void refusesAPollIntervalThatIsNotPositive() throws Exception {
        try (var node = FakeNode.start()) {
            var run = CliRun.run(CliRun.context(home), "load", "--server", node.uri().toString(), "--mode", "CHECKOUT",
                    "--poll-ms", "0");

            assertThat(run.exitCode()).isEqualTo(2);
            assertThat(run.err()).contains("--poll-ms and --patience must be positive");
            assertThat(node.requests).isEmpty();
        }
    }

    @Test
    void knowsOnlyItsThreeModes() {
        var run = CliRun.run(CliRun.context(home), "load", "--mode", "attest");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--mode").contains("CLAIM").contains("CHECKOUT").contains("MCP");
    }
}
