package dev.opledger.ui;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The console over plain HTTP, as a browser without JavaScript sees it: redirects are not
 * followed, cookies are sent only when a test passes them. Optionally from another loopback
 * address (127.0.0.2, …), to be a different client address to the node.
 */
final class ConsoleClient {

    private static final Pattern CSRF_META = Pattern.compile("<meta name=\"_csrf\" content=\"([^\"]+)\"");

    private final int port;
    private final HttpClient http;

    ConsoleClient(int port) {
        this(port, null);
    }

    ConsoleClient(int port, InetAddress from) {
        this.port = port;
        var builder = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(5));
        if (from != null) {
            builder.localAddress(from);
        }
        this.http = builder.build();
    }

    /** The session a login page started and the CSRF token it put in its {@code _csrf} meta tag. */
    record LoginPage(String session, String csrf) {
    }

    LoginPage openLoginPage() {
        var page = get("/login", null);
        var token = CSRF_META.matcher(page.body());
        if (!token.find()) {
            throw new AssertionError("the login page has no _csrf meta tag");
        }
        return new LoginPage(session(page).orElseThrow(), token.group(1));
    }

    /** Signs in as the login form does: the login page's session and token with the credentials. */
    HttpResponse<String> signIn(String username, String password) {
        LoginPage page = openLoginPage();
        return post("/login", "username=" + encode(username) + "&password=" + encode(password) + "&_csrf="
                + encode(page.csrf()), page.session());
    }

    HttpResponse<String> get(String path, String cookie) {
        var request = HttpRequest.newBuilder(uri(path)).GET();
        if (cookie != null) {
            request.header("Cookie", cookie);
        }
        return send(request.build());
    }

    HttpResponse<String> getWithBasic(String path, String username, String password) {
        String credentials = java.util.Base64.getEncoder().encodeToString(
                (username + ":" + password).getBytes(StandardCharsets.UTF_8));
        return send(HttpRequest.newBuilder(uri(path)).header("Authorization", "Basic " + credentials).GET().build());
    }

    HttpResponse<String> post(String path, String form, String cookie, String... headers) {
        var request = HttpRequest.newBuilder(uri(path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form));
        if (cookie != null) {
            request.header("Cookie", cookie);
        }
        if (headers.length > 0) {
            request.headers(headers);
        }
        return send(request.build());
    }

    /** {@code JSESSIONID=…} from the response's Set-Cookie, without its attributes. */
    static Optional<String> session(HttpResponse<?> response) {
        return sessionCookie(response).map(cookie -> cookie.split(";")[0]);
    }

    /** The whole {@code Set-Cookie: JSESSIONID=…} header, attributes included. */
    static Optional<String> sessionCookie(HttpResponse<?> response) {
        return response.headers().allValues("Set-Cookie").stream().filter(cookie -> cookie.startsWith("JSESSIONID="))
                .findFirst();
    }

    String url(String path) {
        return uri(path).toString();
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
