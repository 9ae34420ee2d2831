package dev.opledger.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Error;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.swagger.v3.core.util.Yaml31;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The node's OpenAPI document (resources/openapi/v1.yaml), and the check that a real exchange is
 * one it declares: the path and method, every non-standard request header as a parameter, the
 * status code (explicitly, no {@code default}), the content type, every header a client acts on,
 * the headers it marks required, and the body against the response's schema (JSON Schema
 * 2020-12, which is what OpenAPI 3.1 schemas are), so a problem's {@code type} must be one the
 * response lists.
 */
final class ApiDescription {

    /** Response headers a client reads: each one a response carries must be declared for it. */
    static final Set<String> CLIENT_HEADERS = Set.of("location", "idempotent-replayed", "preference-applied",
            "www-authenticate", "allow", "retry-after");

    /** Request headers that are the API's own, not HTTP's: each one sent must be a declared parameter. */
    static final Set<String> API_REQUEST_HEADERS = Set.of("idempotency-key", "prefer", "app-attest-key-id",
            "app-attest-challenge", "app-attest-assertion");

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final SchemaRegistry SCHEMAS = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

    final String text;
    final JsonNode root;

    private ApiDescription(String text) {
        this.text = text;
        try {
            this.root = JSON.readTree(Yaml31.mapper().readTree(text).toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ApiDescription load() {
        try (InputStream in = ApiDescription.class.getResourceAsStream("/openapi/v1.yaml")) {
            assertThat(in).as("openapi/v1.yaml on the class path").isNotNull();
            return new ApiDescription(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What swagger-parser finds wrong with the document as OpenAPI 3.1 (none, or the test fails). */
    List<String> parserMessages() {
        var options = new ParseOptions();
        options.setResolve(true);
        var result = new OpenAPIV3Parser().readContents(text, null, options);
        List<String> messages = new ArrayList<>(result.getMessages() == null ? List.of() : result.getMessages());
        if (result.getOpenAPI() == null) {
            messages.add("not parsed");
        } else if (!result.getOpenAPI().getOpenapi().startsWith("3.1")) {
            messages.add("not OpenAPI 3.1: " + result.getOpenAPI().getOpenapi());
        }
        return messages;
    }

    /** Every problem type URI the document names anywhere. */
    Set<String> problemTypes() {
        var types = new java.util.TreeSet<String>();
        var matcher = java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(ProblemType.BASE_URI) + "[a-z0-9-]+")
                .matcher(text);
        while (matcher.find()) {
            types.add(matcher.group());
        }
        return types;
    }

    /** Asserts that this exchange is one the document declares; returns the problem type, if any. */
    Optional<String> check(String method, String template, Map<String, String> sentHeaders,
            HttpResponse<String> response) {
        String what = method + " " + template + " → " + response.statusCode() + " " + response.body();
        JsonNode pathItem = root.path("paths").path(template);
        assertThat(pathItem.isObject()).as("path %s declared", template).isTrue();
        JsonNode operation = pathItem.path(method.toLowerCase(Locale.ROOT));
        if (!operation.isObject()) {
            return undeclaredMethod(what, pathItem, response);
        }

        for (String header : sentHeaders.keySet()) {
            if (API_REQUEST_HEADERS.contains(header.toLowerCase(Locale.ROOT))) {
                assertThat(headerParameter(pathItem, operation, header)).as("%s: request header %s declared", what, header)
                        .isTrue();
            }
        }

        JsonNode declared = operation.path("responses").path(Integer.toString(response.statusCode()));
        assertThat(declared.isObject()).as("%s: status declared", what).isTrue();
        declared = resolve(declared);

        Map<String, List<String>> headers = response.headers().map();
        JsonNode declaredHeaders = declared.path("headers");
        for (String name : headers.keySet()) {
            if (CLIENT_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                assertThat(field(declaredHeaders, name)).as("%s: response header %s declared", what, name).isNotNull();
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = declaredHeaders.properties().iterator(); it.hasNext();) {
            var header = it.next();
            JsonNode definition = resolve(header.getValue());
            if (definition.path("required").asBoolean(false)) {
                assertThat(response.headers().firstValue(header.getKey())).as("%s: required header %s", what,
                        header.getKey()).isPresent();
            }
            response.headers().firstValue(header.getKey()).ifPresent(value -> {
                List<Error> errors = validate(definition.path("schema"), JSON.getNodeFactory().stringNode(value));
                assertThat(errors).as("%s: header %s: %s against its schema", what, header.getKey(), value).isEmpty();
            });
        }

        String contentType = response.headers().firstValue("Content-Type").map(v -> v.split(";")[0].strip()).orElse(null);
        if (response.body().isEmpty()) {
            return Optional.empty();
        }
        assertThat(contentType).as("%s: a body has a content type", what).isNotNull();
        JsonNode media = declared.path("content").path(contentType);
        assertThat(media.isObject()).as("%s: content type %s declared (declared: %s)", what, contentType,
                declared.path("content").propertyNames()).isTrue();
        if (!contentType.endsWith("json")) {
            return Optional.empty();
        }
        JsonNode body = JSON.readTree(response.body());
        List<Error> errors = validate(media.path("schema"), body);
        assertThat(errors).as("%s: the body against its declared schema", what).isEmpty();
        return contentType.equals("application/problem+json") ? Optional.of(body.path("type").asString())
                : Optional.empty();
    }

    /** A method the path does not declare: 405 method-not-allowed, {@code Allow} naming the declared ones. */
    private Optional<String> undeclaredMethod(String what, JsonNode pathItem, HttpResponse<String> response) {
        assertThat(response.statusCode()).as("%s: an undeclared method", what).isEqualTo(405);
        Set<String> declared = new java.util.TreeSet<>();
        for (String name : pathItem.propertyNames()) {
            if (Set.of("get", "put", "post", "delete", "options", "head", "patch", "trace").contains(name)) {
                declared.add(name.toUpperCase(Locale.ROOT));
            }
        }
        Set<String> allowed = new java.util.TreeSet<>();
        response.headers().allValues("Allow").forEach(v -> Arrays.stream(v.split(","))
                .map(String::strip).filter(m -> !m.isEmpty()).forEach(allowed::add));
        assertThat(allowed).as("%s: Allow", what).containsAll(declared);
        Set<String> implicit = new java.util.TreeSet<>(declared);
        implicit.addAll(Set.of("HEAD", "OPTIONS"));
        assertThat(implicit).as("%s: Allow names only declared methods (and HEAD, OPTIONS)", what).containsAll(allowed);
        JsonNode schema = root.at("/components/responses/MethodNotAllowed/content/application~1problem+json/schema");
        assertThat(validate(schema, JSON.readTree(response.body()))).as("%s: the body", what).isEmpty();
        return Optional.of(JSON.readTree(response.body()).path("type").asString());
    }

    private List<Error> validate(JsonNode schema, JsonNode instance) {
        // the document's component schemas as $defs of one 2020-12 schema, so its $refs resolve
        String defs = root.path("components").path("schemas").toString();
        String json = ("{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"$defs\":" + defs + ",\"allOf\":["
                + schema + "]}").replace("#/components/schemas/", "#/$defs/");
        return SCHEMAS.getSchema(json).validate(instance);
    }

    private boolean headerParameter(JsonNode pathItem, JsonNode operation, String header) {
        for (JsonNode parameters : List.of(pathItem.path("parameters"), operation.path("parameters"))) {
            for (JsonNode parameter : parameters) {
                JsonNode p = resolve(parameter);
                if ("header".equals(p.path("in").asString()) && p.path("name").asString().equalsIgnoreCase(header)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Follows a local {@code $ref} ({@code #/components/…}). */
    JsonNode resolve(JsonNode node) {
        JsonNode current = node;
        while (current.has("$ref")) {
            String ref = current.get("$ref").asString();
            assertThat(ref).startsWith("#/");
            current = root.at(ref.substring(1));
            assertThat(current.isMissingNode()).as("%s resolves", ref).isFalse();
        }
        return current;
    }

    private static @Nullable JsonNode field(JsonNode object, String name) {
        for (var it = object.properties().iterator(); it.hasNext();) {
            var entry = it.next();
            if (entry.getKey().equalsIgnoreCase(name)) {
                return entry.getValue();
            }
        }
        return null;
    }

}
