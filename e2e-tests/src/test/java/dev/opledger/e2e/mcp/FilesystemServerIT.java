package dev.opledger.e2e.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.e2e.FilesystemServerPackage;
import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolRef;
import dev.opledger.mcp.ToolReply;
import dev.opledger.mcp.internal.McpProperties;
import dev.opledger.mcp.internal.McpProtocol;
import dev.opledger.mcp.internal.McpToolClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A third-party server: npm's {@value #PACKAGE} over stdio, started with {@code npx -y} as a node
 * would start it. It speaks only 2025-11-25, so {@code auto} must find that out by probing. The
 * package is fetched from the npm registry first; if that is not possible the test fails and
 * says why (it is never skipped).
 */
class FilesystemServerIT {

    static final String PACKAGE = FilesystemServerPackage.PACKAGE;

    @TempDir
    static Path root;

    private static McpToolClient client;

    @BeforeAll
    @Timeout(value = 4, unit = TimeUnit.MINUTES) // the first fetch on a clean machine downloads the package
    static void fetchThePackageAndConfigureTheServer() throws Exception {
        FilesystemServerPackage.fetch(root);
        client = new McpToolClient(new McpProperties(Map.of("files", server(McpProtocol.AUTO))));
    }

    @AfterAll
    static void stopTheServer() {
        if (client != null) {
            client.close();
        }
    }

    private static McpProperties.Server server(McpProtocol protocol) {
        return McpProperties.Server.stdio("npx", List.of("-y", PACKAGE, root.toString()), protocol,
                Duration.ofSeconds(30));
    }

    private static ToolRef tool(String name) {
        return new ToolRef("files", name);
    }

    @Test
    void autoFindsThatItSpeaksTheClassicRevision() throws Exception {
        ToolReply reply = client.call(tool("list_allowed_directories"), Map.of());

        assertThat(reply.error()).isFalse();
        assertThat(reply.text()).contains(root.toRealPath().toString());
        assertThat(client.protocol("files")).contains(McpProtocol.CLASSIC);
    }

    @Test
    void creatingADirectoryTwiceAnswersAlike() throws Exception {
        Map<String, Object> arguments = Map.of("path", root.resolve("orders/2026").toString());

        ToolReply first = client.call(tool("create_directory"), arguments);
        ToolReply second = client.call(tool("create_directory"), arguments);

        assertThat(first.error()).isFalse();
        assertThat(second).isEqualTo(first);
        assertThat(root.resolve("orders/2026")).isDirectory();
    }

    @Test
    void hintsAreWhatItsReadmeDocuments() {
        //                                                              readOnly idempotent destructive openWorld
        assertThat(client.hints(tool("write_file"))).contains(new ToolHints(false, true, true, false));
        assertThat(client.hints(tool("edit_file"))).contains(new ToolHints(false, false, true, false));
        assertThat(client.hints(tool("create_directory"))).contains(new ToolHints(false, true, false, false));
        assertThat(client.hints(tool("read_file"))).hasValueSatisfying(hints -> {
            assertThat(hints.readOnly()).isTrue();
            assertThat(hints.destructive()).isNull();
        });
    }

    @Test
    void aToolsErrorIsAReply() throws Exception {
        ToolReply reply = client.call(tool("read_text_file"), Map.of("path", "/etc/hostname"));

        assertThat(reply.error()).isTrue();
        assertThat(reply.text()).contains("Access denied");
    }

    @Test
    void speaksTheClassicRevisionWhenItIsConfigured() throws Exception {
        try (var classic = new McpToolClient(new McpProperties(Map.of("files", server(McpProtocol.CLASSIC))))) {
            Files.writeString(root.resolve("note.txt"), "effectively once", StandardCharsets.UTF_8);

            ToolReply reply = classic.call(tool("read_text_file"), Map.of("path", root.resolve("note.txt").toString()));

            assertThat(reply.error()).isFalse();
            assertThat(reply.text()).isEqualTo("effectively once");
            assertThat(classic.protocol("files")).contains(McpProtocol.CLASSIC);
        }
    }
}
