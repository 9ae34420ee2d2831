package dev.opledger.api;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a {@link ResponseEntity} to the servlet response as Spring MVC would for the API's
 * handlers (they produce {@code application/json} only): its status and headers, and its body as
 * JSON through the application's {@link JsonMapper}, with its length (where MVC streams it
 * chunked); a problem gets the request's path as its {@code instance} where it has none, as MVC
 * sets it. For answers written outside MVC's return-value handling: a waited answer
 * ({@link WaitedAnswers}) and the direct routes ({@link DirectOperationRoutes}).
 */
@Component
class EntityWriter {

    private final JsonMapper json;

    EntityWriter(JsonMapper json) {
        this.json = json;
    }

    void send(ResponseEntity<?> entity, String path, HttpServletResponse response) throws IOException {
        response.setStatus(entity.getStatusCode().value());
        entity.getHeaders().forEach((name, values) -> values.forEach(value -> response.addHeader(name, value)));
        Object body = entity.getBody();
        if (body != null) {
            MediaType type = entity.getHeaders().getContentType();
            if (body instanceof ProblemDetail problem && problem.getInstance() == null) {
                problem.setInstance(URI.create(path));
            }
            byte[] bytes = json.writeValueAsBytes(body instanceof ProblemDetail problem
                    ? ProblemResponseWriter.body(problem) : body);
            response.setContentType((type != null ? type : MediaType.APPLICATION_JSON).toString());
            response.setContentLength(bytes.length);
            response.getOutputStream().write(bytes);
        }
    }
}
