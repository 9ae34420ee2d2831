package dev.opledger.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Talks to a node's API over real HTTP, as the app does. */
public final class ApiClient {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .build();
    private final URI base;

    public ApiClient(URI base) {
        this.base = base;
    }

    public static ApiClient onPort(int port) {
        return new ApiClient(URI.create("http://localhost:" + port));
    }

    /** POST /v1/operations with a JSON body. */
    public HttpResponse<String> submit(String token, String operationId, String body) {
        return send(request("/v1/operations", token, Map.of("Idempotency-Key", operationId, "Content-Type",
                "application/json")).POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    /** POST /v1/operations/{operationId}/cancel, without a body. */
    public HttpResponse<String> cancel(String token, String operationId) {
        return send(request("/v1/operations/" + operationId + "/cancel", token, Map.of())
                .POST(HttpRequest.BodyPublishers.noBody()).build());
    }

    public HttpResponse<String> get(String token, String path) {
        return send(request(path, token, Map.of()).GET().build());
    }

    public HttpRequest.Builder request(String path, String token, Map<String, String> headers) {
        var builder = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30));
        if (token != null) {
            builder.header("Authorization", "Bearer " + token);
        }
        headers.forEach(builder::header);
        return builder;
    }

    public HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static JsonNode json(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }

    public static String command(String type, String argumentsJson) {
        return "{\"type\":\"" + type + "\",\"arguments\":" + argumentsJson + "}";
    }
}
