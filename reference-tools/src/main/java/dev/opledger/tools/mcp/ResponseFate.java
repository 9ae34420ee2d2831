package dev.opledger.tools.mcp;

import jakarta.servlet.http.HttpServletRequest;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * Whether one HTTP request still gets its response. {@link #drop()} silences the response (see
 * {@link DroppableResponse}) and closes the connection, so the client sees a lost response.
 */
final class ResponseFate {

    private static final String ATTRIBUTE = ResponseFate.class.getName();

    private final AtomicBoolean dropped = new AtomicBoolean();
    private final @Nullable Runnable closeConnection;

    private ResponseFate(@Nullable Runnable closeConnection) {
        this.closeConnection = closeConnection;
    }

    static ResponseFate attachTo(HttpServletRequest request) {
        var fate = new ResponseFate(ConnectionAbortValve.closerOf(request));
        request.setAttribute(ATTRIBUTE, fate);
        return fate;
    }

    /** The fate of the request, or an unattached one when the request did not come through /mcp. */
    static ResponseFate of(HttpServletRequest request) {
        return request.getAttribute(ATTRIBUTE) instanceof ResponseFate fate ? fate : unattached();
    }

    /** A fate with no connection to close: dropping it only silences a {@link DroppableResponse}. */
    static ResponseFate unattached() {
        return new ResponseFate(null);
    }

    void drop() {
        if (dropped.compareAndSet(false, true) && closeConnection != null) {
            closeConnection.run();
        }
    }

    boolean dropped() {
        return dropped.get();
    }
}
