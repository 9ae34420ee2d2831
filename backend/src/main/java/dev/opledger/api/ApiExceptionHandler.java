package dev.opledger.api;

import org.apache.coyote.BadRequestException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.multipart.MultipartException;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/**
 * Every refusal of the API as {@code application/problem+json}. A 5xx never echoes exception
 * text. Global rather than limited to this package: Spring MVC raises 405 and 415 while looking
 * for a handler, before any controller is chosen, and only global advice sees those.
 */
@RestControllerAdvice
class ApiExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

    @ExceptionHandler
    ResponseEntity<ProblemDetail> refused(ApiException e) {
        ProblemDetail body = ApiProblem.of(e.problem(), e.getMessage(), e.operationId());
        e.extensions().forEach(body::setProperty);
        return problem(body);
    }

    @ExceptionHandler
    ResponseEntity<ProblemDetail> attestRefused(AttestProblem e) {
        ProblemDetail body = ApiProblem.of(e.problem(), e.getMessage(), e.operationId());
        if (e.check() != null) {
            body.setProperty("check", e.check());
        }
        var response = ResponseEntity.status(body.getStatus()).contentType(MediaType.APPLICATION_PROBLEM_JSON);
        if (body.getStatus() == 401) {
            // RFC 9110: a 401 names the scheme that would succeed; here it is App Attest, not the token
            response.header(HttpHeaders.WWW_AUTHENTICATE, "AppAttest realm=\"opledger\"");
        }
        return response.body(body);
    }

    @ExceptionHandler
    ResponseEntity<ProblemDetail> unsupportedMediaType(HttpMediaTypeNotSupportedException e) {
        return problem(ApiProblem.of(ProblemType.UNSUPPORTED_MEDIA_TYPE,
                "send the command as application/json", null));
    }

    /**
     * The firewall checks a header's value when it is read; one read by a controller (the
     * Idempotency-Key, the User-Agent) that holds a control or unassigned character is refused
     * here, as the firewall refuses the rest before any handler runs. The detail does not quote it.
     */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> rejectedByFirewall(RequestRejectedException e) {
        return problem(ApiProblem.of(ProblemType.REQUEST_REJECTED, "a header of the request holds a control "
                + "character or one that Unicode does not assign", null));
    }

    /** Spring MVC parses a multipart body before a handler is chosen; the API takes JSON only. */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> multipart(MultipartException e) {
        return unsupportedMediaType(new HttpMediaTypeNotSupportedException(e.getMessage()));
    }

    @ExceptionHandler
    ResponseEntity<ProblemDetail> methodNotAllowed(HttpRequestMethodNotSupportedException e) {
        var response = problem(ApiProblem.of(ProblemType.METHOD_NOT_ALLOWED,
                e.getMethod() + " is not supported here", null));
        var headers = new HttpHeaders();
        headers.putAll(response.getHeaders());
        if (e.getSupportedHttpMethods() != null) {
            headers.setAllow(e.getSupportedHttpMethods());
        }
        return new ResponseEntity<>(response.getBody(), headers, response.getStatusCode());
    }

    /**
     * The operations are JSON only: a request whose {@code Accept} takes no JSON is refused before
     * its handler runs (their mappings say what they produce), so a submission stores nothing. The
     * problem itself is {@code application/problem+json} whatever the request accepts (RFC 9110
     * allows a 406 to answer in any type).
     */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> notAcceptable(HttpMediaTypeNotAcceptableException e) {
        return problem(ApiProblem.of(ProblemType.NOT_ACCEPTABLE,
                "this resource is application/json (and its problems application/problem+json): "
                        + "send Accept: application/json, or no Accept", null));
    }

    @ExceptionHandler
    ResponseEntity<ProblemDetail> noSuchRoute(NoResourceFoundException e) {
        return problem(ApiProblem.of(ProblemType.NOT_FOUND, "there is no resource at " + e.getResourcePath(), null));
    }

    /**
     * Tomcat raises this while the body is read when its framing does not parse (a chunk header
     * that is not hex, an oversized chunk extension): the client's fault, answered as such and not
     * logged as a failure of the node.
     */
    @ExceptionHandler
    ResponseEntity<ProblemDetail> unreadableFraming(BadRequestException e) {
        return problem(ApiProblem.of(ProblemType.MALFORMED_BODY,
                "the request body's framing does not parse (chunked transfer coding)", null));
    }

    /**
     * The answer this advice gives a failure of an operation's handler, for a request answered
     * outside Spring MVC ({@link DirectOperationRoutes}): the handler for the failure's class, as
     * MVC picks the closest; every other failure {@link #unexpected}. (MVC's own refusals, such as
     * 405 or 415, are raised before a handler runs and never reach the direct routes.)
     */
    ResponseEntity<ProblemDetail> answer(Exception e) {
        return switch (e) {
            case AttestProblem attest -> attestRefused(attest);
            case ApiException api -> refused(api);
            case RequestRejectedException rejected -> rejectedByFirewall(rejected);
            case BadRequestException framing -> unreadableFraming(framing);
            default -> unexpected(e);
        };
    }

    @ExceptionHandler
    ResponseEntity<ProblemDetail> unexpected(Exception e) {
        if (DatabaseUnavailable.causedBy(e)) {
            // an outage of the database, not a bug: one line, no stack trace, for each refused request
            log.warn("database unreachable, answered 503: {}", DatabaseUnavailable.reason(e));
            return DatabaseUnavailable.response();
        }
        log.error("unexpected failure in the API", e);
        return problem(ApiProblem.of(ProblemType.INTERNAL,
                "the request failed on the server; it may be retried with the same Idempotency-Key", null));
    }

    private static ResponseEntity<ProblemDetail> problem(ProblemDetail body) {
        return ResponseEntity.status(body.getStatus())
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(body);
    }
}
