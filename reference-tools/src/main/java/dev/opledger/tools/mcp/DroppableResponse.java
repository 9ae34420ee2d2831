package dev.opledger.tools.mcp;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import org.jspecify.annotations.Nullable;

/**
 * The response as the MCP transports see it: once its request's {@link ResponseFate} is dropped,
 * whatever they write (the result of the call, an SSE event) is discarded, so not a byte of the
 * answer reaches the client.
 */
final class DroppableResponse extends HttpServletResponseWrapper {

    private final ResponseFate fate;
    private @Nullable PrintWriter writer;
    private @Nullable ServletOutputStream stream;

    DroppableResponse(HttpServletResponse response, ResponseFate fate) {
        super(response);
        this.fate = fate;
    }

    @Override
    public synchronized PrintWriter getWriter() throws IOException {
        if (writer == null) {
            writer = new PrintWriter(new SilencedWriter(super.getWriter()));
        }
        return writer;
    }

    @Override
    public synchronized ServletOutputStream getOutputStream() throws IOException {
        if (stream == null) {
            stream = new SilencedStream(super.getOutputStream());
        }
        return stream;
    }

    @Override
    public void flushBuffer() throws IOException {
        if (!fate.dropped()) {
            super.flushBuffer();
        }
    }

    private final class SilencedWriter extends Writer {

        private final Writer target;

        SilencedWriter(Writer target) {
            this.target = target;
        }

        @Override
        public void write(char[] buffer, int offset, int length) throws IOException {
            if (!fate.dropped()) {
                target.write(buffer, offset, length);
            }
        }

        @Override
        public void flush() throws IOException {
            if (!fate.dropped()) {
                target.flush();
            }
        }

        @Override
        public void close() throws IOException {
            if (!fate.dropped()) {
                target.close();
            }
        }
    }

    private final class SilencedStream extends ServletOutputStream {

        private final ServletOutputStream target;

        SilencedStream(ServletOutputStream target) {
            this.target = target;
        }

        @Override
        public void write(int b) throws IOException {
            if (!fate.dropped()) {
                target.write(b);
            }
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            if (!fate.dropped()) {
                target.write(bytes, offset, length);
            }
        }

        @Override
        public void flush() throws IOException {
            if (!fate.dropped()) {
                target.flush();
            }
        }

        @Override
        public void close() throws IOException {
            if (!fate.dropped()) {
                target.close();
            }
        }

        @Override
        public boolean isReady() {
            return target.isReady();
        }

        @Override
        public void setWriteListener(WriteListener listener) {
            target.setWriteListener(listener);
        }
    }
}
