package dev.opledger.effect.internal;

import dev.opledger.operation.CanonicalJson;
import dev.opledger.operation.PayloadHash;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.json.JsonMapper;

/**
 * The digest of an effect's arguments: SHA-256 (lowercase hex) of the RFC 8785 canonical JSON of
 * the step's arguments without the names the gateway adds ({@link #GATEWAY_ARGUMENTS}). Those
 * follow from the operation, the step key and the tool's class (which a person may change), and
 * the gateway overwrites them anyway, so they say nothing about what the step asked for; leaving
 * them out also lets a record written before digests were stored get the same digest from its
 * stored arguments. Canonical JSON compares values, not Java types: {@code 49.90} and
 * {@code 49.9}, an {@code Integer} and a {@code Long} 10, give one digest.
 */
public final class ArgumentDigest {

    /** The arguments the gateway adds to every call (idempotencyKey for keyed tools only). */
    public static final Set<String> GATEWAY_ARGUMENTS = Set.of("operationId", "stepKey", "idempotencyKey");

    private ArgumentDigest() {
    }

    /**
     * @throws IllegalArgumentException when the arguments are not JSON that RFC 8785 accepts (a
     *         number out of the double range, NaN)
     */
    public static String of(JsonMapper json, Map<String, ?> arguments) {
        Map<String, Object> own = new LinkedHashMap<>(arguments);
        own.keySet().removeAll(GATEWAY_ARGUMENTS);
        return PayloadHash.sha256(CanonicalJson.canonicalize(json.writeValueAsString(own))).hex();
    }
}
