package dev.opledger.api;

import org.jspecify.annotations.Nullable;

/**
 * Tells the API's requests from the console's by their raw request URI, for refusals that come
 * before Spring MVC has mapped the request (the firewall, the servlet container). The URI is
 * taken as the client sent it, so {@code //v1/…} and {@code /v1;x=1/…} count as the API's: a
 * client that sent them expects the API's answer.
 */
final class ApiPaths {

    private static final String PREFIX = "/v1";

    private ApiPaths() {
    }

    /**
     * {@code true} for {@code /v1} and what lies under it; also when there is no URI at all (the
     * request line did not parse), since a browser on the console never sends such a request.
     */
    static boolean isApi(@Nullable String rawUri) {
        if (rawUri == null || rawUri.isEmpty() || rawUri.charAt(0) != '/') {
            return true;
        }
        int start = 0;
        while (start + 1 < rawUri.length() && rawUri.charAt(start + 1) == '/') {
            start++;
        }
        if (!rawUri.startsWith(PREFIX, start)) {
            return false;
        }
        int end = start + PREFIX.length();
        return end == rawUri.length() || "/;?".indexOf(rawUri.charAt(end)) >= 0;
    }
}
