package dev.opledger.tools.mcp;

import dev.opledger.mcptasks.TasksFeature;
import dev.opledger.tools.task.TaskRunner;
import dev.opledger.tools.task.TaskStore;
import io.modelcontextprotocol.modern.McpSchema.Implementation;
import io.modelcontextprotocol.modern.server.HmacRequestStateCodec;
import io.modelcontextprotocol.modern.server.McpServer;
import io.modelcontextprotocol.modern.server.RequestStateCodec;
import io.modelcontextprotocol.modern.server.feature.ToolsFeature;
import io.modelcontextprotocol.modern.server.transport.HttpServletMcpTransport;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Objects;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * The MCP endpoint: both revisions' servers over the same tools, behind one servlet at
 * {@value #ENDPOINT}; the 2026-07-28 server also serves the task tools and the tasks extension
 * ({@code tasks/get}, {@code tasks/update}, {@code tasks/cancel}), suggesting
 * {@code reference-tools.tasks.poll-interval} (500 ms) between polls. The SDK transports are servlets but deliberately not beans, or Spring Boot
 * would also map them at paths of their own.
 */
@Import(ToolInvoker.class)
public final class McpEndpoint {

    /** The path of the endpoint, for both revisions. */
    public static final String ENDPOINT = "/mcp";
    static final String SERVER_NAME = "opledger-reference-tools";

    McpEndpoint() {
    }

    @Bean
    ServletRegistrationBean<McpEndpointServlet> mcpEndpoint(ToolInvoker invoker, TaskStore tasks, TaskRunner runner,
            @Value("${reference-tools.tasks.poll-interval:500ms}") Duration pollInterval) {
        String version = Objects.requireNonNullElse(getClass().getPackage().getImplementationVersion(), "dev");

        McpServer modernServer = McpServer.builder()
                .serverInfo(Implementation.builder(SERVER_NAME, version).build())
                .feature(ToolsFeature.ofSync(new ModernTools(invoker, pollInterval)))
                .feature(new TasksFeature(new ModernTasks(tasks, runner, pollInterval)))
                .requestStateCodec(requestStateCodec())
                .build();
        HttpServletMcpTransport modern = HttpServletMcpTransport.builder(modernServer)
                .endpoint(ENDPOINT)
                .contextExtractor(CallEnvironment::extract)
                .build();

        HttpServletStreamableServerTransportProvider classic = HttpServletStreamableServerTransportProvider.builder()
                .mcpEndpoint(ENDPOINT)
                .contextExtractor(CallEnvironment::extract)
                .build();
        McpSyncServer classicServer = io.modelcontextprotocol.server.McpServer.sync(classic)
                .serverInfo(SERVER_NAME, version)
                .capabilities(ServerCapabilities.builder().tools(false).build())
                .tools(ClassicTools.of(invoker))
                .build();

        var registration = new ServletRegistrationBean<>(new McpEndpointServlet(modern, classic, classicServer),
                ENDPOINT);
        registration.setAsyncSupported(true);
        registration.setLoadOnStartup(1);
        return registration;
    }

    /**
     * A key of this process for the request state of multi-round-trip calls. No tool asks for
     * input, so no state ever crosses servers; set explicitly, the SDK does not warn about it.
     */
    private static RequestStateCodec requestStateCodec() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return HmacRequestStateCodec.builder().key(key).build();
    }

    /** Lets a call close its connection without an answer (the drop-response fault). */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> connectionAbortValve() {
        return factory -> factory.addContextValves(new ConnectionAbortValve());
    }
}
