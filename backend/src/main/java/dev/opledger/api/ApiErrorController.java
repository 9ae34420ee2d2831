package dev.opledger.api;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.autoconfigure.web.ErrorProperties;
import org.springframework.boot.webmvc.autoconfigure.error.BasicErrorController;
import org.springframework.boot.webmvc.autoconfigure.error.ErrorViewResolver;
import org.springframework.boot.webmvc.error.ErrorAttributes;
import org.springframework.http.ResponseEntity;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.servlet.ModelAndView;

/**
 * Spring Boot's {@code /error}, which answers errors raised outside Spring MVC's handlers (a
 * {@code sendError} from a filter or from Tomcat inside the application): a problem when the
 * failed request was the API's, whatever it accepts; Boot's page or JSON for the console's.
 */
class ApiErrorController extends BasicErrorController {

    private final ServerErrorProblems problems;
    private final ProblemResponseWriter writer;

    ApiErrorController(ErrorAttributes attributes, ErrorProperties properties, List<ErrorViewResolver> resolvers,
            ServerErrorProblems problems, ProblemResponseWriter writer) {
        super(attributes, properties, resolvers);
        this.problems = problems;
        this.writer = writer;
    }

    @Override
    public @Nullable ModelAndView errorHtml(HttpServletRequest request, HttpServletResponse response) {
        if (!failedInApi(request)) {
            return super.errorHtml(request, response);
        }
        writeProblem(request, response);
        return null; // the response is written: Spring MVC renders nothing
    }

    @Override
    public @Nullable ResponseEntity<Map<String, Object>> error(HttpServletRequest request) {
        if (!failedInApi(request)) {
            return super.error(request);
        }
        var current = (ServletRequestAttributes) RequestContextHolder.currentRequestAttributes();
        writeProblem(request, current.getResponse());
        return null;
    }

    private void writeProblem(HttpServletRequest request, @Nullable HttpServletResponse response) {
        if (response == null) {
            throw new IllegalStateException("no response to write the problem to");
        }
        try {
            // a filter's failure (before any controller) to reach the database: 503 as in ApiExceptionHandler
            if (request.getAttribute(RequestDispatcher.ERROR_EXCEPTION) instanceof Throwable failure
                    && DatabaseUnavailable.causedBy(failure)) {
                response.setHeader(org.springframework.http.HttpHeaders.RETRY_AFTER,
                        Integer.toString(DatabaseUnavailable.RETRY_AFTER_SECONDS));
                writer.write(response, DatabaseUnavailable.problem());
                return;
            }
            writer.write(response, problems.problem(getStatus(request).value()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean failedInApi(HttpServletRequest request) {
        return request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI) instanceof String uri && ApiPaths.isApi(uri);
    }
}
