package dev.opledger.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, byte for byte as given: for requests that java.net.http would
 * normalise or refuse to send (a lower-case method, {@code //} or {@code %00} in the target, a
 * TAB in a header, non-ASCII header bytes, two headers of a name). Every request asks for
 * {@code Connection: close}, so the response is whatever comes back until the server closes.
 */
public final class RawHttp {

    private final int port;

    public RawHttp(int port) {
        this.port = port;
    }

    /** A response: status, headers by lower-case name, and the (de-chunked) body. */
    public record Response(int status, Map<String, List<String>> headers, byte[] body) {

        public String header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null ? null : values.getFirst();
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            return status + " " + headers + " " + text();
        }
    }

    /** A request to write: method and target as given, then the headers, then the body. */
    public static final class Request {

        private final ByteArrayOutputStream head = new ByteArrayOutputStream();
        private byte[] body = new byte[0];
        private boolean contentLength = true;
        private String host;

        public Request(String method, String target) {
            write(method + " " + target + " HTTP/1.1\r\n");
        }

        /** The request line exactly as given (without CRLF), for request lines that do not parse. */
        public static Request line(String requestLine) {
            var request = new Request("", "");
            request.head.reset();
            request.write(requestLine + "\r\n");
            return request;
        }

        /** A header whose value is written in ISO-8859-1, as HTTP/1.1 bytes are read. */
        public Request header(String name, String value) {
            return header(name, value.getBytes(StandardCharsets.ISO_8859_1));
        }

        public Request header(String name, byte[] value) {
            write(name + ": ");
            head.writeBytes(value);
            write("\r\n");
            return this;
        }

        public Request body(byte[] bytes) {
            this.body = bytes;
            return this;
        }

        public Request body(String utf8) {
            return body(utf8.getBytes(StandardCharsets.UTF_8));
        }

        /** The {@code Host} header in place of {@code localhost:<port>} (for DNS-rebinding cases). */
        public Request host(String value) {
            this.host = value;
            return this;
        }

        /**
         * The body is written as given and framed by the caller's own headers: no
         * {@code Content-Length} is added (for chunked bodies, or a wrong length).
         */
        public Request framedByCaller() {
            this.contentLength = false;
            return this;
        }

        byte[] bytes(int port) {
            var out = new ByteArrayOutputStream();
            out.writeBytes(head.toByteArray());
            String hostHeader = host == null ? "localhost:" + port : host;
            out.writeBytes(("Host: " + hostHeader + "\r\nConnection: close\r\n").getBytes(StandardCharsets.ISO_8859_1));
            if (contentLength && body.length > 0) {
                out.writeBytes(("Content-Length: " + body.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            }
            out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(body);
            return out.toByteArray();
        }

        private void write(String text) {
            head.writeBytes(text.getBytes(StandardCharsets.ISO_8859_1));
        }
    }

    public Response send(Request request) {
        try (var socket = new Socket("localhost", port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request.bytes(port));
                out.flush();
            } catch (SocketException e) {
                // the server answered and closed before the whole request was written (Tomcat
                // refusing a bad request line): its answer may have arrived all the same
                return parse(readAfterFailedWrite(socket.getInputStream(), e));
            }
            return parse(readUntilClosed(socket.getInputStream()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Everything until the server closes. A server that closes with some of the request unread
     * resets the connection; what arrived before the reset is the response.
     */
    private static byte[] readUntilClosed(InputStream in) throws IOException {
        var received = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                received.write(buffer, 0, n);
            }
        } catch (SocketException e) {
            if (received.size() == 0) {
                throw e;
            }
        }
        return received.toByteArray();
    }

    private static byte[] readAfterFailedWrite(InputStream in, SocketException writeFailure) throws IOException {
        try {
            byte[] received = readUntilClosed(in);
            if (received.length > 0) {
                return received;
            }
        } catch (IOException e) {
            writeFailure.addSuppressed(e);
        }
        throw writeFailure;
    }

    static Response parse(byte[] raw) {
        int end = indexOf(raw, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 0);
        if (end < 0) {
            throw new IllegalStateException("no complete response head in " + raw.length + " bytes: "
                    + new String(raw, StandardCharsets.ISO_8859_1));
        }
        String[] lines = new String(raw, 0, end, StandardCharsets.ISO_8859_1).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.computeIfAbsent(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                    .add(lines[i].substring(colon + 1).trim());
        }
        byte[] body = java.util.Arrays.copyOfRange(raw, end + 4, raw.length);
        List<String> encoding = headers.get("transfer-encoding");
        if (encoding != null && encoding.getFirst().equalsIgnoreCase("chunked")) {
            body = dechunk(body);
        }
        return new Response(status, headers, body);
    }

    private static byte[] dechunk(byte[] chunked) {
        var out = new ByteArrayOutputStream();
        int at = 0;
        while (true) {
            int lineEnd = indexOf(chunked, new byte[] {'\r', '\n'}, at);
            String size = new String(chunked, at, lineEnd - at, StandardCharsets.US_ASCII).split(";")[0].trim();
            int length = Integer.parseInt(size, 16);
            if (length == 0) {
                return out.toByteArray();
            }
            out.write(chunked, lineEnd + 2, length);
            at = lineEnd + 2 + length + 2;
        }
    }

    private static int indexOf(byte[] data, byte[] what, int from) {
        outer:
        for (int i = from; i <= data.length - what.length; i++) {
            for (int j = 0; j < what.length; j++) {
                if (data[i + j] != what[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
