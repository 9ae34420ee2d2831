package dev.opledger.e2e;

import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The TypeScript MCP SDK's client, pinned, run by Node on {@code ts-sdk/client.mjs} (test
 * resources): connects to a node's {@code /mcp}, lists its tools and calls one, and reports what
 * it got or the error it raised. {@link #install} puts the package under {@code target/ts-sdk}
 * with npm (from npm's cache when {@code .ci/run} prefetched it); if that fails the test fails
 * and says why (it is never skipped).
 */
final class TypeScriptSdkClient {

    static final String PACKAGE = "@modelcontextprotocol/sdk@1.32.2";
    private static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(3);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Path directory;

    private TypeScriptSdkClient(Path directory) {
        this.directory = directory;
    }

    static TypeScriptSdkClient install() throws IOException, InterruptedException {
        Path directory = Path.of("target", "ts-sdk").toAbsolutePath();
        Files.createDirectories(directory);
        try (InputStream script = TypeScriptSdkClient.class.getResourceAsStream("/ts-sdk/client.mjs")) {
            if (script == null) {
                throw new IllegalStateException("ts-sdk/client.mjs is not on the test classpath");
            }
            Files.copy(script, directory.resolve("client.mjs"), StandardCopyOption.REPLACE_EXISTING);
        }
        if (!Files.isDirectory(directory.resolve("node_modules/@modelcontextprotocol/sdk"))) {
            run(directory, INSTALL_TIMEOUT, "npm", "install", "--prefix", directory.toString(), "--no-audit", "--no-fund",
                    "--silent", PACKAGE);
        }
        return new TypeScriptSdkClient(directory);
    }

    /** Runs the client once; its report, or a failure if it did not end within {@code timeout}. */
    JsonNode connectListAndCall(URI mcp, String token, String tool, String arguments, Duration timeout)
            throws IOException, InterruptedException {
        String output = run(directory, timeout, "node", directory.resolve("client.mjs").toString(), mcp.toString(),
                token, tool, arguments);
        List<String> lines = output.lines().filter(line -> line.startsWith("{")).toList();
        if (lines.isEmpty()) {
            fail("the TypeScript SDK client printed no report:\n" + output);
        }
        return JSON.readTree(lines.getLast());
    }

    private static String run(Path directory, Duration timeout, String... command)
            throws IOException, InterruptedException {
        Path log = Files.createTempFile("ts-sdk", ".log");
        Process process;
        try {
            process = new ProcessBuilder(command).directory(directory.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            fail(command[0] + " cannot be started (" + e.getMessage() + "): this test needs Node.js and npm on the PATH");
            return "";
        }
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            fail(String.join(" ", command) + " did not end within " + timeout + " (a hang):\n"
                    + Files.readString(log, StandardCharsets.UTF_8));
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            fail(String.join(" ", command) + " failed (exit " + process.exitValue() + ")\n" + output);
        }
        return output;
    }
}
