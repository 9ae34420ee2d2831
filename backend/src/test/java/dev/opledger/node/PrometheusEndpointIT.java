package dev.opledger.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.claim.ClaimService;
import dev.opledger.mcpserver.McpAgent;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.Operations;
import dev.opledger.testing.TestTokens;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/** /actuator/prometheus: the domain's meters (tags bounded: statuses, never an operationId), for ADMIN only. */
@NodeIntegrationTest
class PrometheusEndpointIT {

    @LocalServerPort
    int port;

    @Autowired
    ClaimService claims;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aClaimCountsAsOneMoreAcceptedOperationAndOneMoreEventWaitingForTheRelay() throws Exception {
        double acceptedBefore = value(scrape(), "opledger_operations", "status=\"ACCEPTED\"");

        Operations.claim(claims, new SubjectId("metrics-" + UUID.randomUUID()), 1);

        String scraped = scrape();
        // the test profile runs no worker and no relay: the operation stays ACCEPTED, its event unpublished
        assertThat(value(scraped, "opledger_operations", "status=\"ACCEPTED\"")).isEqualTo(acceptedBefore + 1);
        for (OperationStatus status : OperationStatus.values()) {
            assertThat(scraped).as("a series for %s, also at zero", status)
                    .contains("opledger_operations{status=\"" + status.name() + "\"}");
        }
        assertThat(value(scraped, "opledger_outbox_backlog", null)).isGreaterThanOrEqualTo(1);
        assertThat(value(scraped, "opledger_outbox_relay_lag_seconds", null)).isGreaterThanOrEqualTo(0);
        assertThat(scraped).as("no operationId is a tag").doesNotContainPattern("operation_?[iI]d=");
    }

    @Test
    void anMcpCallCountsAsASubmissionByOutcomeAndItsTaskAsWorking() throws Exception {
        String before = scrape();
        var agent = new McpAgent(port, TestTokens.forSubject("metrics-" + UUID.randomUUID()));
        String operationId = UUID.randomUUID().toString();

        var created = McpAgent.result(agent.callTool("checkout", McpAgent.checkout(operationId, 1), true));
        agent.callTool("checkout", McpAgent.checkout(operationId, 1), true); // the reply was lost: a retry
        agent.callTool("checkout", McpAgent.checkout(UUID.randomUUID().toString(), 0), true); // quantity below 1

        assertThat(created).containsEntry("status", "working");
        String after = scrape();
        assertThat(value(after, "opledger_mcp_tasks", "status=\"working\""))
                .as("one task, however often it is asked for").isEqualTo(value(before, "opledger_mcp_tasks", "status=\"working\"") + 1);
        assertThat(after).contains("opledger_mcp_tasks{status=\"completed\"}", "opledger_mcp_tasks{status=\"cancelled\"}");
        for (String outcome : new String[] {"accepted", "replayed", "invalid-arguments"}) {
            String label = "channel=\"agent\",outcome=\"" + outcome + "\"";
            assertThat(value(after, "opledger_submissions_total", label)).as(outcome)
                    .isEqualTo(valueOrZero(before, "opledger_submissions_total", label) + 1);
        }
    }

    @Test
    void onlyAnAdminMayScrape() throws Exception {
        assertThat(get(null).statusCode()).isEqualTo(401);
        assertThat(get(basic("support", "support-test")).statusCode()).isEqualTo(403);
        assertThat(get(basic("admin", "wrong")).statusCode()).isEqualTo(401);
    }

    private String scrape() throws IOException, InterruptedException {
        HttpResponse<String> response = get(basic("admin", "admin-test"));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/plain"));
        return response.body();
    }

    /** The sample's value; the meter must be there. */
    private static double value(String scraped, String name, @Nullable String label) {
        Matcher sample = sample(scraped, name, label);
        assertThat(sample.find()).as("%s{%s} in the scrape", name, label).isTrue();
        return Double.parseDouble(sample.group(1));
    }

    /** A counter is there from its first increment on. */
    private static double valueOrZero(String scraped, String name, String label) {
        Matcher sample = sample(scraped, name, label);
        return sample.find() ? Double.parseDouble(sample.group(1)) : 0;
    }

    private static Matcher sample(String scraped, String name, @Nullable String label) {
        String labels = label == null ? "(?:\\{[^}]*})?" : "\\{" + Pattern.quote(label) + "}";
        return Pattern.compile("(?m)^" + Pattern.quote(name) + labels + " (\\S+)$").matcher(scraped);
    }

    private HttpResponse<String> get(@Nullable String authorization) throws IOException, InterruptedException {
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/prometheus")).GET();
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
