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
 * request. A 501 is answered as a 400: Tomcat sends it for a method ({@code CONNECT}) or a
 * transfer coding it does not implement, which is the client's doing, not the server's failure.
 */
@Component
class ServerErrorProblems {

    private final JsonMapper json;

    ServerErrorProblems(JsonMapper json) {
        this.json = json;
    }

    /** The status to answer with in place of {@code status}. */
    static int answered(int status) {
        return status == 501 ? 400 : status;
    }

    ProblemDetail problem(int sent) {
        int status = answered(sent);
        ProblemType type = ProblemType.forStatus(status);
        HttpStatus known = HttpStatus.resolve(status);
        String reason = known == null ? "" : " (" + known.getReasonPhrase() + ")";
        if (sent != status) {
            reason = " (the server does not implement the request's method or transfer coding)";
        }
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
