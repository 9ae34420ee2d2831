package dev.opledger.operation;

import java.io.IOException;
import org.erdtman.jcs.JsonCanonicalizer;

/**
 * RFC 8785 (JCS) canonicalisation, the one place JSON becomes the bytes a hash covers: commands'
 * payload hashes ({@link Command}) and effects' argument digests use the same canonical form, so
 * two stages can never disagree about which JSON values are "the same".
 */
public final class CanonicalJson {

    private CanonicalJson() {
    }

    /**
     * The canonical UTF-8 bytes of a JSON text.
     *
     * @throws IllegalArgumentException when the text is not JSON that JCS (I-JSON) accepts, such
     *         as a number outside the IEEE 754 double range
     */
    public static byte[] canonicalize(String jsonText) {
        try {
            return new JsonCanonicalizer(jsonText).getEncodedUTF8();
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("cannot be canonicalised (RFC 8785): " + e.getMessage(), e);
        }
    }
}
