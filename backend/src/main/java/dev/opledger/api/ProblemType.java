package dev.opledger.api;

import java.net.URI;
import org.springframework.http.HttpStatus;

/**
 * The problem types the API answers with; their URIs are stable and listed in
 * {@code docs/problems.md}. Clients switch on the type, never on the title or detail.
 */
public enum ProblemType {
    KEY_REUSE("key-reuse", "Idempotency key reused with a different payload", HttpStatus.UNPROCESSABLE_CONTENT),
    UNKNOWN_OPERATION_TYPE("unknown-operation-type", "Unknown operation type", HttpStatus.UNPROCESSABLE_CONTENT),
    INVALID_ARGUMENTS("invalid-arguments", "Arguments do not match the operation type", HttpStatus.UNPROCESSABLE_CONTENT),
    IDEMPOTENCY_KEY("idempotency-key", "Missing or malformed Idempotency-Key", HttpStatus.BAD_REQUEST),
    UNAUTHENTICATED("unauthenticated", "Authentication required", HttpStatus.UNAUTHORIZED),
    FORBIDDEN("forbidden", "Not allowed", HttpStatus.FORBIDDEN),
    ATTESTATION_REQUIRED("attestation-required", "App Attest assertion required", HttpStatus.UNAUTHORIZED),
    ASSERTION_INVALID("assertion-invalid", "App Attest assertion invalid", HttpStatus.UNAUTHORIZED),
    ASSERTION_REPLAYED("assertion-replayed", "App Attest assertion replayed", HttpStatus.UNAUTHORIZED),
    CHALLENGE_INVALID("challenge-invalid", "App Attest challenge invalid", HttpStatus.UNAUTHORIZED),
    KEY_UNKNOWN("key-unknown", "App Attest key unknown or revoked", HttpStatus.UNAUTHORIZED),
    ATTESTATION_INVALID("attestation-invalid", "App Attest attestation invalid", HttpStatus.UNAUTHORIZED),
    KEY_REGISTERED("key-registered", "App Attest key already registered", HttpStatus.CONFLICT),
    MALFORMED_BODY("malformed-body", "Malformed request body", HttpStatus.BAD_REQUEST),
    BODY_TOO_LARGE("body-too-large", "Request body too large", HttpStatus.CONTENT_TOO_LARGE),
    UNSUPPORTED_MEDIA_TYPE("unsupported-media-type", "Unsupported media type", HttpStatus.UNSUPPORTED_MEDIA_TYPE),
    NOT_FOUND("not-found", "Not found", HttpStatus.NOT_FOUND),
    NOT_ACCEPTABLE("not-acceptable", "Not acceptable", HttpStatus.NOT_ACCEPTABLE),
    METHOD_NOT_ALLOWED("method-not-allowed", "Method not allowed", HttpStatus.METHOD_NOT_ALLOWED),
    REQUEST_REJECTED("request-rejected", "Request rejected", HttpStatus.BAD_REQUEST),
    HTTP_VERSION_NOT_SUPPORTED("http-version-not-supported", "HTTP version not supported",
            HttpStatus.HTTP_VERSION_NOT_SUPPORTED),
    DATABASE_UNAVAILABLE("database-unavailable", "Database unavailable", HttpStatus.SERVICE_UNAVAILABLE),
    INTERNAL("internal-error", "Internal error", HttpStatus.INTERNAL_SERVER_ERROR);

    public static final String BASE_URI = "https://opledger.dev/problems/";

    private final URI type;
    private final String title;
    private final HttpStatus status;

    ProblemType(String suffix, String title, HttpStatus status) {
        this.type = URI.create(BASE_URI + suffix);
        this.title = title;
        this.status = status;
    }

    /**
     * The type of an error status that arose outside the API's own code (the request firewall,
     * the servlet container): the type of that status where there is one, otherwise
     * {@code request-rejected} for a 4xx and {@code internal-error} for a 5xx.
     */
    public static ProblemType forStatus(int status) {
        return switch (status) {
            case 401 -> UNAUTHENTICATED;
            case 403 -> FORBIDDEN;
            case 404 -> NOT_FOUND;
            case 405 -> METHOD_NOT_ALLOWED;
            case 406 -> NOT_ACCEPTABLE;
            case 413 -> BODY_TOO_LARGE;
            case 415 -> UNSUPPORTED_MEDIA_TYPE;
            case 505 -> HTTP_VERSION_NOT_SUPPORTED;
            default -> status >= 500 ? INTERNAL : REQUEST_REJECTED;
        };
    }

    public URI type() {
        return type;
    }

    public String title() {
        return title;
    }

    public HttpStatus status() {
        return status;
    }
}
