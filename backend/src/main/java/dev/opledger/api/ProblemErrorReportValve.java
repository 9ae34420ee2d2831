package dev.opledger.api;

import java.io.IOException;
import java.io.Writer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.springframework.http.MediaType;

/**
 * Tomcat's error page for the requests Tomcat itself refuses before any servlet sees them
 * (a {@code %00} in the path, a request line that does not parse, headers over the limit): a
 * problem for the API's paths, Tomcat's own page (without report or server name, as Spring
 * Boot sets it) for the console's. Its checks before writing are Tomcat's own: an error status,
 * nothing written yet, not reported before, the connection still usable.
 */
class ProblemErrorReportValve extends ErrorReportValve {

    private final ServerErrorProblems problems;

    ProblemErrorReportValve(ServerErrorProblems problems) {
        this.problems = problems;
        setShowReport(false);
        setShowServerInfo(false);
    }

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        if (!ApiPaths.isApi(request.getCoyoteRequest().requestURI().toString())) {
            super.report(request, response, throwable);
            return;
        }
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        var ioAllowed = new AtomicBoolean(false);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return;
        }
        try {
            response.setStatus(ServerErrorProblems.answered(status));
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            response.setCharacterEncoding("UTF-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write(problems.json(status));
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // the client is gone or the response cannot be written any more: nothing to answer
        }
    }
}
