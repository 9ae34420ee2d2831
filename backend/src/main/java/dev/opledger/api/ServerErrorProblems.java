package dev.opledger.api;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * The problem for an error status set outside the API's own code (by Tomcat, or by a filter that
 * called {@code sendError}): the status is kept, the type is {@link ProblemType#forStatus}'s,
 * and the detail names the status only, never the container's message, which may quote the
 * request.
 */
@Component
class ServerErrorProblems {

    private final JsonMapper json;

    ServerErrorProblems(JsonMapper json) {
        this.json = json;
    }

    ProblemDetail problem(int status) {
        ProblemType type = ProblemType.forStatus(status);
        HttpStatus known = HttpStatus.resolve(status);
        String reason = known == null ? "" : " (" + known.getReasonPhrase() + ")";
        ProblemDetail problem = ApiProblem.of(type, "the server refused the request with status " + status + reason
                + (status >= 500 ? "" : "; fix the request before sending it again"), null);
        problem.setStatus(status);
        return problem;
    }

    Map<String, Object> body(int status) {
        ProblemDetail problem = problem(status);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", problem.getType().toString());
        body.put("title", problem.getTitle());
        body.put("status", problem.getStatus());
        body.put("detail", problem.getDetail());
        return body;
    }

    String json(int status) {
        return json.writeValueAsString(body(status));
    }
}
