package dev.opledger.mcpserver.internal;

import dev.opledger.claim.CancelService;
import dev.opledger.claim.ClaimService;
import dev.opledger.claim.LifecycleService;
import dev.opledger.graph.OperationTypes;
import dev.opledger.mcpserver.McpServerPaths;
import dev.opledger.mcptasks.TasksFeature;
import dev.opledger.submission.SubmissionService;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.McpSchema.Implementation;
import io.modelcontextprotocol.modern.server.HmacRequestStateCodec;
import io.modelcontextprotocol.modern.server.McpFeature;
import io.modelcontextprotocol.modern.server.McpServer;
import io.modelcontextprotocol.modern.server.feature.McpSyncToolRepository;
import io.modelcontextprotocol.modern.server.feature.ToolsFeature;
import io.modelcontextprotocol.modern.server.transport.HttpServletMcpTransport;
import io.modelcontextprotocol.server.transport.DefaultServerTransportSecurityValidator;
import java.util.Objects;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The MCP server at {@value McpServerPaths#ENDPOINT}: the SDK's 2026-07-28 server with the
 * operation tools and the tasks extension, behind the SDK's servlet transport. The transport is
 * a servlet but deliberately not a bean, or Spring Boot would also map it at a path of its own.
 * The bearer token is checked by the security filter chain before the servlet (api's
 * ApiSecurityConfiguration); the host/origin validator refuses DNS-rebinding requests.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(name = "opledger.mcp-server.enabled", matchIfMissing = true)
class McpServerConfiguration {

    static final String SERVER_NAME = "opledger";

    /**
     * No check of arguments by the SDK: the submission façade checks them against the type's
     * schema and its refusal carries the API's problem type; the SDK's would not.
     */
    private static final JsonSchemaValidator FACADE_CHECKS_ARGUMENTS = new JsonSchemaValidator() {
        @Override
        public ValidationResponse validate(java.util.Map<String, Object> schema, Object structuredContent) {
            return ValidationResponse.asValid(null);
        }
    };

    @Bean
    ServletRegistrationBean<McpServerServlet> mcpServerEndpoint(
            ObjectProvider<McpServerServlet.McpServerTransport> transport, McpServerProperties properties) {
        var registration = new ServletRegistrationBean<>(new McpServerServlet(transport, McpJsonDefaults.getMapper(),
                (int) properties.maxRequestSize().toBytes()), McpServerPaths.ENDPOINT);
        registration.setName("mcpServer");
        registration.setAsyncSupported(true);
        registration.setLoadOnStartup(1);
        return registration;
    }

    /** The operation types as tools. A bean so the conformance run (test sources) can add its fixtures. */
    @Bean
    OperationTools mcpServerOperationTools(SubmissionService submissions, ClaimService claims, TaskStore tasks,
            OperationTypes types, McpServerProperties properties) {
        return new OperationTools(submissions, claims, tasks, types, McpJsonDefaults.getMapper(), properties);
    }

    /**
     * {@code fixtureFeatures}: any {@link McpFeature} beans. Production declares none, so the node
     * serves tools and the tasks extension only (no resources, prompts or completions: McpServerIT
     * checks the capabilities); the conformance run's test-only profile adds the suite's resources
     * and prompts this way (ConformanceFeatures, test sources).
     */
    @Bean
    McpServerServlet.McpServerTransport mcpServerTransport(McpSyncToolRepository tools, ClaimService claims,
            CancelService cancels, LifecycleService lifecycle, TaskStore tasks, McpServerProperties properties,
            RequestStates requestStates, ObjectProvider<McpFeature> fixtureFeatures) {
        McpJsonMapper json = McpJsonDefaults.getMapper();
        String version = Objects.requireNonNullElse(getClass().getPackage().getImplementationVersion(), "dev");
        McpServer.Builder builder = McpServer.builder()
                .serverInfo(Implementation.builder(SERVER_NAME, version).build())
                .jsonMapper(json)
                .feature(ToolsFeature.ofSync(tools, json, FACADE_CHECKS_ARGUMENTS, 0, McpSchema.CacheScope.PRIVATE))
                .feature(new TasksFeature(new OperationTasks(tasks, claims, cancels, lifecycle, properties)))
                .requestStateCodec(requestStateCodec(requestStates));
        fixtureFeatures.orderedStream().forEach(builder::feature);
        McpServer server = builder.build();
        HttpServletMcpTransport transport = HttpServletMcpTransport.builder(server)
                .jsonMapper(json)
                .endpoint(McpServerPaths.ENDPOINT)
                .contextExtractor(Caller::extract)
                .maxRequestSize((int) properties.maxRequestSize().toBytes())
                .httpHeaderValidator(DefaultServerTransportSecurityValidator.builder()
                        .allowedHosts(properties.allowedHosts())
                        .allowedOrigins(properties.allowedOrigins())
                        .build())
                .build();
        return new McpServerServlet.McpServerTransport(transport);
    }

    /**
     * The SDK's envelope of a multi-round-trip {@code requestState} (it seals what a tool returns
     * once more, HMAC with the method, tool, principal and an expiry): keyed from the cluster's
     * request-state key ({@link RequestStates#sdkKey}), so a round sealed by one node opens on any
     * other, and bound to the subject.
     */
    private static HmacRequestStateCodec requestStateCodec(RequestStates requestStates) {
        return HmacRequestStateCodec.builder().key(requestStates.sdkKey())
                .principalExtractor(context -> Caller.of(context).subject().value())
                .build();
    }
}
