package dev.opledger.api;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Enumeration;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.web.filter.ServerHttpObservationFilter;

/**
 * The API's two most frequent requests answered without Spring MVC's dispatch: a submission
 * ({@code POST /v1/operations}) and a status read ({@code GET /v1/operations/{operationId}}),
 * with or without {@code Prefer: wait}. Issue 13 found MVC's handler mapping, argument
 * resolution and return-value handling (content negotiation, converters) a fifth of a claim's
 * request thread (docs/benchmarks.md, "A claim without Spring MVC's dispatch").
 *
 * <p>The answer is the controller's own ({@link OperationController#submit},
 * {@link OperationController#find} and their waiting variants), written as MVC writes it
 * ({@link EntityWriter}); a failure is answered by the same exception handlers
 * ({@link ApiExceptionHandler#answer}). Only a request whose form MVC would read no differently
 * is answered here: its exact path (no encoding, no trailing slash, no context path), its method,
 * a JSON {@code Content-Type} as the mapping consumes it, no {@code Accept} or one that takes
 * {@code application/json} as written, and an authenticated caller; every other request passes
 * on to MVC, which answers it as before. The filter runs after Spring Security's filters (the
 * caller is authenticated and authorized) and inside the request's observation, which it names
 * with the route's pattern as MVC would.
 */
final class DirectOperationRoutes extends HttpFilter {

    static final String SUBMIT = "/v1/operations";
    static final String READ = "/v1/operations/{operationId}";

    private static final String ITEM_PREFIX = SUBMIT + "/";
    private static final int UUID_LENGTH = 36;

    private final OperationController operations;
    private final ApiExceptionHandler failures;
    private final EntityWriter entities;

    DirectOperationRoutes(OperationController operations, ApiExceptionHandler failures, EntityWriter entities) {
        this.operations = operations;
        this.failures = failures;
        this.entities = entities;
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        Route route = routeOf(request);
        // the caller as MVC resolves an Authentication argument: the request's principal
        if (route == null || !(request.getUserPrincipal() instanceof Authentication caller)) {
            chain.doFilter(request, response);
            return;
        }
        ServerHttpObservationFilter.findObservationContext(request)
                .ifPresent(context -> context.setPathPattern(route.pattern()));
        String path = request.getRequestURI();
        @Nullable ResponseEntity<?> answer;
        try {
            answer = switch (route.pattern()) {
                case SUBMIT -> route.waits() ? operations.submitWaiting(caller, request, response)
                        : operations.submit(caller, request);
                default -> route.waits() ? operations.findWaiting(caller, itemId(path), request, response)
                        : operations.find(caller, itemId(path));
            };
        } catch (Exception e) {
            answer = failures.answer(e);
        }
        if (answer != null) { // null: a waited answer, written when the operation settles (WaitedAnswers)
            entities.send(answer, path, response);
        }
    }

    /** A request answered here: its route's pattern, and whether it names a {@code Prefer} (the waiting handler's). */
    private record Route(String pattern, boolean waits) {
    }

    /**
     * The request's route when it is answered here, else null; null too when the firewall refuses
     * a header as it is read, so that MVC reads it again and answers as it always has.
     */
    private static @Nullable Route routeOf(HttpServletRequest request) {
        try {
            String pattern = pattern(request);
            // as the waiting mappings' headers condition: the header is there
            return pattern == null ? null : new Route(pattern, request.getHeader(PreferWait.PREFER) != null);
        } catch (RequestRejectedException e) {
            return null;
        }
    }

    private static String itemId(String path) {
        return path.substring(ITEM_PREFIX.length());
    }

    private static @Nullable String pattern(HttpServletRequest request) {
        if (!acceptsJson(request.getHeaders(HttpHeaders.ACCEPT))) {
            return null;
        }
        String path = request.getRequestURI();
        return switch (request.getMethod()) {
            case "POST" -> path.equals(SUBMIT) && isJson(request.getContentType()) ? SUBMIT : null;
            case "GET" -> isItem(path) ? READ : null;
            default -> null;
        };
    }

    /** No {@code Accept}, or one header that names JSON or anything, as clients send it. */
    private static boolean acceptsJson(Enumeration<String> accepts) {
        if (!accepts.hasMoreElements()) {
            return true;
        }
        String accept = accepts.nextElement().strip();
        return !accepts.hasMoreElements() && (accept.equals("*/*") || accept.equalsIgnoreCase("application/json"));
    }

    private static boolean isJson(@Nullable String contentType) {
        return contentType != null && (contentType.equalsIgnoreCase("application/json")
                || contentType.equalsIgnoreCase("application/json;charset=utf-8")
                || contentType.equalsIgnoreCase("application/json; charset=utf-8"));
    }

    /** {@code /v1/operations/} and 36 characters of a UUID's text: nothing MVC would decode or split. */
    private static boolean isItem(String path) {
        if (path.length() != ITEM_PREFIX.length() + UUID_LENGTH || !path.startsWith(ITEM_PREFIX)) {
            return false;
        }
        for (int i = ITEM_PREFIX.length(); i < path.length(); i++) {
            char c = path.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == '-')) {
                return false;
            }
        }
        return true;
    }
}
