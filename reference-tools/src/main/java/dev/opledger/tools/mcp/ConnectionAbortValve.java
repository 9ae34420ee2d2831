package dev.opledger.tools.mcp;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.coyote.ActionCode;
import org.jspecify.annotations.Nullable;

/**
 * Gives each request a way to close its connection at once, without finishing the response:
 * Tomcat's {@code CLOSE_NOW}, which only its own valves can reach. Supports async requests (the
 * classic streamable transport answers asynchronously).
 */
final class ConnectionAbortValve extends ValveBase {

    private static final String ATTRIBUTE = ConnectionAbortValve.class.getName();

    ConnectionAbortValve() {
        super(true);
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        Runnable closer = () -> response.getCoyoteResponse().action(ActionCode.CLOSE_NOW, null);
        request.setAttribute(ATTRIBUTE, closer);
        getNext().invoke(request, response);
    }

    static @Nullable Runnable closerOf(HttpServletRequest request) {
        return request.getAttribute(ATTRIBUTE) instanceof Runnable closer ? closer : null;
    }
}
