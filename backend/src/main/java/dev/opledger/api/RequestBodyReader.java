package dev.opledger.api;

import dev.opledger.operation.OperationId;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import java.io.IOException;
import java.io.InputStream;
import org.springframework.stereotype.Component;

/**
 * Reads a request body up to the configured limit; a larger one is refused without buffering it.
 * A body under a content coding ({@code Content-Encoding} other than {@code identity}) is refused
 * as an unsupported media type: the node decodes none, and the bytes are not the command sent.
 */
@Component
class RequestBodyReader {

    private final int maxBytes;

    RequestBodyReader(ApiProperties properties) {
        this.maxBytes = (int) properties.maxBodySize().toBytes();
    }

    byte[] read(HttpServletRequest request, @Nullable OperationId operationId) throws IOException {
        String coding = request.getHeader("Content-Encoding");
        if (coding != null && !coding.isBlank() && !"identity".equalsIgnoreCase(coding.strip())) {
            throw new ApiException(ProblemType.UNSUPPORTED_MEDIA_TYPE, "the body is sent with a Content-Encoding "
                    + "this node does not decode; send it uncompressed", operationId);
        }
        if (request.getContentLengthLong() > maxBytes) {
            throw tooLarge(operationId);
        }
        try (InputStream in = request.getInputStream()) {
            byte[] body = in.readNBytes(maxBytes + 1);
            if (body.length > maxBytes) {
                throw tooLarge(operationId);
            }
            return body;
        }
    }

    private ApiException tooLarge(@Nullable OperationId operationId) {
        return new ApiException(ProblemType.BODY_TOO_LARGE, "the body is larger than " + maxBytes + " bytes", operationId);
    }
}
