package dev.opledger.e2e;

import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * npm's server-filesystem, pinned, as a node's configuration starts it ({@code npx -y}, stdio).
 * {@link #fetch} makes sure npx has it before a node needs it; if it cannot be fetched the test
 * fails and says why (it is never skipped).
 */
public final class FilesystemServerPackage {

    public static final String PACKAGE = "@modelcontextprotocol/server-filesystem@2026.8.31";
    private static final Duration FETCH_TIMEOUT = Duration.ofMinutes(3);

    private FilesystemServerPackage() {
    }

    /** A node's arguments for MCP server {@code name}: the package over stdio, allowed to use {@code root} only. */
    public static List<String> serverArguments(String name, Path root) {
        return List.of("--opledger.mcp.servers." + name + ".command=npx",
                "--opledger.mcp.servers." + name + ".args=-y," + PACKAGE + "," + root);
    }

    /**
     * {@link #fetch} before a class's node starts (list it before {@link NodeExtension} in
     * {@code @ExtendWith}): a node that starts the package itself gives its MCP server 30 s to
     * answer, too short for a first download on a loaded machine, and stopping npx mid-install
     * leaves npm's npx cache without the package's package.json, so every later {@code npx -y}
     * of it fails until that cache entry is removed.
     */
    public static final class Fetched implements BeforeAllCallback {

        @Override
        public void beforeAll(ExtensionContext context) throws IOException, InterruptedException {
            fetch(Path.of(System.getProperty("java.io.tmpdir")));
        }
    }

    /** {@code npx -y} the package once with no input: it installs, starts, reads end of input and exits. */
    public static void fetch(Path root) throws IOException, InterruptedException {
        Path log = Files.createTempFile("npx-fetch", ".log");
        Process npx;
        try {
            npx = new ProcessBuilder("npx", "-y", PACKAGE, root.toString())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
        } catch (IOException e) {
            fail("npx cannot be started (" + e.getMessage() + "): this test needs Node.js and npm on the PATH");
            return;
        }
        if (!npx.waitFor(FETCH_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            npx.destroyForcibly();
            fail("npx -y " + PACKAGE + " did not finish within " + FETCH_TIMEOUT + ": is the npm registry reachable?\n"
                    + Files.readString(log));
        }
        if (npx.exitValue() != 0) {
            fail("npx -y " + PACKAGE + " failed (exit " + npx.exitValue() + "): the package could not be fetched "
                    + "from the npm registry or did not start\n" + Files.readString(log));
        }
    }
}
