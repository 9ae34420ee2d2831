package dev.opledger.mcpserver.internal;

import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.McpSchema.BlobResourceContents;
import io.modelcontextprotocol.modern.McpSchema.CompleteResult;
import io.modelcontextprotocol.modern.McpSchema.Content;
import io.modelcontextprotocol.modern.McpSchema.EmbeddedResource;
import io.modelcontextprotocol.modern.McpSchema.GetPromptResult;
import io.modelcontextprotocol.modern.McpSchema.ImageContent;
import io.modelcontextprotocol.modern.McpSchema.Prompt;
import io.modelcontextprotocol.modern.McpSchema.PromptArgument;
import io.modelcontextprotocol.modern.McpSchema.PromptMessage;
import io.modelcontextprotocol.modern.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.modern.McpSchema.Resource;
import io.modelcontextprotocol.modern.McpSchema.ResourceContents;
import io.modelcontextprotocol.modern.McpSchema.ResourceTemplate;
import io.modelcontextprotocol.modern.McpSchema.Role;
import io.modelcontextprotocol.modern.McpSchema.TextContent;
import io.modelcontextprotocol.modern.McpSchema.TextResourceContents;
import io.modelcontextprotocol.modern.server.McpFeature;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpSyncPrompt;
import io.modelcontextprotocol.modern.server.feature.McpSyncPromptRepository;
import io.modelcontextprotocol.modern.server.feature.McpSyncResource;
import io.modelcontextprotocol.modern.server.feature.McpSyncResourceRepository;
import io.modelcontextprotocol.modern.server.feature.McpSyncResourceTemplate;
import io.modelcontextprotocol.modern.server.feature.PromptsFeature;
import io.modelcontextprotocol.modern.server.feature.PromptsPage;
import io.modelcontextprotocol.modern.server.feature.ResourceTemplatesPage;
import io.modelcontextprotocol.modern.server.feature.ResourcesFeature;
import io.modelcontextprotocol.modern.server.feature.ResourcesPage;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;

/**
 * The resources, resource template, prompts and completion the conformance suite's active
 * scenarios read (scripts/conformance.sh), as the SDK's modern {@link ResourcesFeature} and
 * {@link PromptsFeature}; McpServerConfiguration adds every {@link McpFeature} bean to the
 * server, and the SDK declares {@code completions} because the prompts answer
 * {@code completion/complete}. Test sources and profile {@code conformance} only: a production
 * node declares no resources, prompts or completions (McpServerIT checks it).
 */
@Configuration(proxyBeanMethods = false)
@Profile("conformance")
class ConformanceFeatures {

    /** A 1×1 transparent PNG. */
    private static final String PNG =
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

    private static final String STATIC_TEXT = "test://static-text";
    private static final String STATIC_BINARY = "test://static-binary";
    private static final String TEMPLATE = "test://template/{id}/data";
    private static final Pattern TEMPLATE_URI = Pattern.compile("test://template/([^/]+)/data");

    private static final List<Resource> RESOURCES = List.of(
            Resource.builder(STATIC_TEXT, "static-text").description("A static text resource")
                    .mimeType("text/plain").build(),
            Resource.builder(STATIC_BINARY, "static-binary").description("A static binary resource (a PNG)")
                    .mimeType("image/png").build());

    private static final ResourceTemplate DATA_TEMPLATE = ResourceTemplate.builder(TEMPLATE, "template-data")
            .description("Data for an id (the id substituted into the content)").mimeType("application/json").build();

    @Bean
    McpFeature conformanceResources() {
        return ResourcesFeature.ofSync(new McpSyncResourceRepository() {
            @Override
            public ResourcesPage list(McpRequestContext context, @Nullable String cursor) {
                return ResourcesPage.of(RESOURCES);
            }

            @Override
            public ResourceTemplatesPage listTemplates(McpRequestContext context, @Nullable String cursor) {
                return ResourceTemplatesPage.of(List.of(DATA_TEMPLATE));
            }

            /** null for a URI that is none of these: the SDK's "not found" (-32602 with the uri). */
            @Override
            public @Nullable McpSyncResource find(McpRequestContext context, String uri) {
                ResourceContents contents = contents(uri);
                return contents == null ? null
                        : McpSyncResource.of((ctx, request) -> McpSyncResponse.result(read(contents)));
            }

            @Override
            public @Nullable McpSyncResourceTemplate findTemplate(McpRequestContext context, String uriTemplate) {
                return TEMPLATE.equals(uriTemplate) ? McpSyncResourceTemplate.of(DATA_TEMPLATE) : null;
            }
        });
    }

    static @Nullable ResourceContents contents(String uri) {
        if (STATIC_TEXT.equals(uri)) {
            return new TextResourceContents(uri, "text/plain", "This is the content of the static text resource.",
                    null);
        }
        if (STATIC_BINARY.equals(uri)) {
            return BlobResourceContents.builder(uri, PNG).mimeType("image/png").build();
        }
        Matcher template = TEMPLATE_URI.matcher(uri);
        if (template.matches()) {
            String id = template.group(1);
            return new TextResourceContents(uri, "application/json",
                    "{\"id\":\"" + id + "\",\"templateTest\":true,\"data\":\"Data for ID: " + id + "\"}", null);
        }
        return null;
    }

    private static ReadResourceResult read(ResourceContents contents) {
        return ReadResourceResult.builder(List.of(contents)).ttlMs(0).cacheScope(McpSchema.CacheScope.PRIVATE).build();
    }

    static final List<McpSyncPrompt> PROMPTS = List.of(
            prompt(Prompt.builder("test_simple_prompt").description("A prompt without arguments").build(),
                    arguments -> List.of(user(TextContent.builder("This is a simple prompt for testing.").build()))),
            prompt(Prompt.builder("test_prompt_with_arguments").description("A prompt with two arguments")
                    .arguments(List.of(argument("arg1", "First test argument"),
                            argument("arg2", "Second test argument")))
                    .build(),
                    arguments -> List.of(user(TextContent.builder("Prompt with arguments: arg1='"
                            + arguments.get("arg1") + "', arg2='" + arguments.get("arg2") + "'").build())))
                    .withCompletionHandler((context, request) -> CompleteResult.of(new CompleteResult.Completion(
                            List.of("paris", "park", "party").stream()
                                    .filter(value -> value.startsWith(request.argument().value())).toList(),
                            null, false))),
            prompt(Prompt.builder("test_prompt_with_embedded_resource").description("A prompt embedding a resource")
                    .arguments(List.of(argument("resourceUri", "URI of the resource to embed"))).build(),
                    arguments -> List.of(
                            user(EmbeddedResource.builder(new TextResourceContents(
                                    String.valueOf(arguments.get("resourceUri")), "text/plain",
                                    "Embedded resource content for testing.", null)).build()),
                            user(TextContent.builder("Please process the embedded resource above.").build()))),
            prompt(Prompt.builder("test_prompt_with_image").description("A prompt with an image").build(),
                    arguments -> List.of(user(ImageContent.builder(PNG, "image/png").build()),
                            user(TextContent.builder("Please analyze the image above.").build()))));

    @Bean
    McpFeature conformancePrompts() {
        return PromptsFeature.ofSync(new McpSyncPromptRepository() {
            @Override
            public PromptsPage list(McpRequestContext context, @Nullable String cursor) {
                return PromptsPage.of(PROMPTS.stream().map(McpSyncPrompt::definition).toList());
            }

            @Override
            public @Nullable McpSyncPrompt find(McpRequestContext context, String name) {
                return PROMPTS.stream().filter(prompt -> prompt.definition().name().equals(name)).findFirst()
                        .orElse(null);
            }

            @Override
            public boolean supportsCompletion() {
                return true;
            }
        });
    }

    private static McpSyncPrompt prompt(Prompt definition,
            java.util.function.Function<Map<String, String>, List<PromptMessage>> messages) {
        return McpSyncPrompt.of(definition, (context, request) -> McpSyncResponse.result(
                GetPromptResult.builder(messages.apply(request.arguments() == null ? Map.of() : request.arguments()))
                        .build()));
    }

    private static PromptArgument argument(String name, String description) {
        return PromptArgument.builder(name).description(description).required(true).build();
    }

    private static PromptMessage user(Content content) {
        return PromptMessage.builder(Role.USER, content).build();
    }
}
