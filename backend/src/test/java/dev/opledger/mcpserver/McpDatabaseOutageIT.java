package dev.opledger.mcpserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.opledger.OpledgerApplication;
import dev.opledger.operation.UnreachableDatabase;
import dev.opledger.testing.PrivatePostgres;
import dev.opledger.testing.TestTokens;
import io.modelcontextprotocol.modern.JsonRpc;
import io.modelcontextprotocol.modern.McpSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The MCP server while its database is unreachable (a private cluster stopped with {@code pg_ctl
 * stop -m fast}, as api's DatabaseOutageIT does for REST), through the SDK's client transport:
 * every method that needs the database ({@code tools/call} with and without tasks,
 * {@code tasks/get}, {@code tasks/update}, {@code tasks/cancel}) answers within about Hikari's
 * connection timeout with JSON-RPC error -32603 whose {@code data} is the REST API's
 * {@code database-unavailable} problem with {@code retryAfterSeconds}, over HTTP 200 (never 500);
 * the methods that do not need it ({@code server/discover}, {@code tools/list}) still answer.
 * Once the server is back the same calls succeed, and what was refused left nothing behind: one
 * operation and one task for the refused operationId, no cancel recorded.
 */
@SpringBootTest(classes = OpledgerApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS) // its pool points at a cluster that goes away
@Timeout(180)
class McpDatabaseOutageIT {

    /** Within the outage2 branch's port range (18200–18299). */
    private static final int PORT = 18201;
    private static final int CONNECTION_TIMEOUT_MS = 2000;
    /** What "no hang" means here: the connection timeout, and ample room for a loaded machine. */
    private static final Duration BOUND = Duration.ofSeconds(15);
    private static final String DATABASE_UNAVAILABLE = "https://opledger.dev/problems/database-unavailable";

    private static PrivatePostgres cluster;

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void onAPrivateCluster(DynamicPropertyRegistry registry) {
        assumeTrue(PrivatePostgres.available(), "needs PostgreSQL's initdb (and, as root, runuser and a postgres user)");
        cluster = PrivatePostgres.underTheNode(PORT, "opledger_mcp_outage", CONNECTION_TIMEOUT_MS, registry);
    }

    @AfterAll
    static void removeTheCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void whileTheDatabaseIsDownEveryMethodThatNeedsItAnswersARetryableErrorAndTheRetrySucceedsOnceItIsBack()
            throws Exception {
        String subject = "mcp-outage-" + UUID.randomUUID();
        String token = TestTokens.forSubject(subject);
        var agent = new McpAgent(port, token);
        String accepted = UUID.randomUUID().toString();
        String refused = UUID.randomUUID().toString();
        String taskId = (String) McpAgent.result(agent.callTool("checkout", McpAgent.checkout(accepted, 1), true))
                .get("taskId");

        cluster.stop();

        assertThat(McpAgent.result(agent.request("server/discover", Map.of(), false, null)))
                .as("discovery needs no database").containsKey("capabilities");
        assertThat(agent.client().listTools().list().tools()).as("the tools are known without the database")
                .extracting(McpSchema.Tool::name).contains("checkout");
        assertUnavailable(timed(() -> agent.callTool("checkout", McpAgent.checkout(refused, 1), false)));
        assertUnavailable(timed(() -> agent.callTool("checkout", McpAgent.checkout(refused, 1), true)));
        assertUnavailable(timed(() -> agent.callTool("checkout", McpAgent.checkout(accepted, 1), true)));
        assertUnavailable(timed(() -> agent.getTask(taskId)));
        assertUnavailable(timed(() -> agent.request("tasks/update", Map.of("taskId", taskId, "inputResponses",
                Map.of()), true, taskId)));
        assertUnavailable(timed(() -> agent.request("tasks/cancel", Map.of("taskId", taskId), true, taskId)));
        assertThat(httpStatusOfAToolCall(token, UUID.randomUUID().toString()))
                .as("the JSON-RPC error's HTTP status: not 500").isEqualTo(200);

        cluster.startAgain();

        // the pool finds the server again by itself: the agent's retry after retryAfterSeconds succeeds
        await("the MCP server answering from its database again").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofSeconds(UnreachableDatabase.RETRY_AFTER_SECONDS))
                .until(() -> agent.getTask(taskId).error() == null);
        var created = McpAgent.result(agent.callTool("checkout", McpAgent.checkout(refused, 1), true));
        assertThat(created).containsEntry("resultType", "task");
        assertThat(McpAgent.result(agent.callTool("checkout", McpAgent.checkout(refused, 1), true)))
                .containsEntry("taskId", created.get("taskId"));
        assertThat(McpAgent.result(agent.getTask(taskId))).containsEntry("taskId", taskId)
                .containsEntry("status", "working");
        assertThat(count("SELECT count(*) FROM operation WHERE subject_id = ? AND operation_id = ?::uuid", subject,
                refused)).as("the refused calls stored nothing: one operation after the retry").isEqualTo(1);
        assertThat(count("SELECT count(*) FROM mcp_task WHERE subject_id = ? AND operation_id = ?::uuid", subject,
                refused)).as("and one task").isEqualTo(1);
        assertThat(count("SELECT count(*) FROM operation WHERE subject_id = ?", subject)).isEqualTo(2);
        assertThat(count("SELECT count(*) FROM operation_cancel c JOIN operation o ON o.id = c.operation_ref "
                + "WHERE o.subject_id = ?", subject)).as("the refused tasks/cancel recorded no cancel").isZero();
    }

    private static void assertUnavailable(Timed answer) {
        assertThat(answer.took()).as("answered, not hung").isLessThan(BOUND);
        JsonRpc.JSONRPCResponse response = answer.response();
        assertThat(response.error()).as("an error, not %s", response.result()).isNotNull();
        assertThat(response.error().code()).isEqualTo(-32603);
        assertThat(response.error().message()).contains("database").doesNotContain("Exception");
        Map<String, Object> data = McpAgent.errorData(response);
        assertThat(data).containsEntry("type", DATABASE_UNAVAILABLE)
                .containsEntry("retryAfterSeconds", UnreachableDatabase.RETRY_AFTER_SECONDS);
        assertThat((String) data.get("detail")).doesNotContain("jdbc:").doesNotContain("Exception");
    }

    private record Timed(JsonRpc.JSONRPCResponse response, Duration took) {
    }

    private static Timed timed(Supplier<JsonRpc.JSONRPCResponse> request) {
        long started = System.nanoTime();
        var response = request.get();
        return new Timed(response, Duration.ofNanos(System.nanoTime() - started));
    }

    /** A {@code tools/call} sent without the SDK, to read the HTTP status its transport answers with. */
    private int httpStatusOfAToolCall(String token, String operationId) throws Exception {
        String body = """
                {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"checkout","arguments":\
                {"operationId":"%s","sku":"SKU-ESPRESSO","quantity":1,"amount":49.90,"currency":"EUR",\
                "recipient":"ann@example.com"},"_meta":{"io.modelcontextprotocol/protocolVersion":"%s",\
                "io.modelcontextprotocol/clientInfo":{"name":"outage","version":"1"},\
                "io.modelcontextprotocol/clientCapabilities":{}}}}""".formatted(operationId,
                McpSchema.LATEST_PROTOCOL_VERSION);
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/mcp"))
                .timeout(BOUND)
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", McpSchema.LATEST_PROTOCOL_VERSION)
                .header("Mcp-Method", "tools/call")
                .header("Mcp-Name", "checkout")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        try (var http = HttpClient.newHttpClient()) {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            assertThat(response.body()).contains("-32603").contains(DATABASE_UNAVAILABLE);
            return response.statusCode();
        }
    }

    private static long count(String sql, Object... arguments) throws SQLException {
        try (Connection db = cluster.connect("opledger_mcp_outage"); var query = db.prepareStatement(sql)) {
            for (int i = 0; i < arguments.length; i++) {
                query.setObject(i + 1, arguments[i]);
            }
            try (var rows = query.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }
}
