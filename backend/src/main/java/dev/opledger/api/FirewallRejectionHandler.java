package dev.opledger.api;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.web.firewall.HttpStatusRequestRejectedHandler;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.stereotype.Component;

/**
 * Answers a request that Spring Security's firewall refused ({@code //}, {@code ;x=1},
 * {@code /./}, an encoded {@code .}, {@code /}, CR, LF or NUL, a method it does not know) with
 * a 400 {@code request-rejected} problem when it was meant for the API; the console's keep
 * Security's default (a 400 for the error page). The detail never quotes the rejected part: it
 * may be a header value, a token among them.
 */
@Component
class FirewallRejectionHandler implements RequestRejectedHandler {

    private static final Logger log = LoggerFactory.getLogger(FirewallRejectionHandler.class);

    private final ProblemResponseWriter problems;
    private final RequestRejectedHandler console = new HttpStatusRequestRejectedHandler();

    FirewallRejectionHandler(ProblemResponseWriter problems) {
        this.problems = problems;
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, RequestRejectedException rejected)
            throws IOException, ServletException {
        if (!ApiPaths.isApi(request.getRequestURI())) {
            console.handle(request, response, rejected);
            return;
        }
        log.debug("request rejected by the firewall: {}", rejected.getMessage());
        if (response.isCommitted()) {
            return;
        }
        response.reset();
        problems.write(response, ApiProblem.of(ProblemType.REQUEST_REJECTED, "the request's method, path or "
                + "headers are not allowed (for example //, /./, ;parameters, encoded dots, slashes or control "
                + "characters in the path, or a method other than the upper-case standard ones)", null));
    }
}
