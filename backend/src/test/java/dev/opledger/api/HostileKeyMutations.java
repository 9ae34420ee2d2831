package dev.opledger.api;

import static dev.opledger.api.HostileMutations.benign;
import static dev.opledger.api.HostileMutations.pick;
import static dev.opledger.api.HostileMutations.randomAscii;
import static dev.opledger.api.HostileMutations.refusing;
import static dev.opledger.api.HostileMutations.sendsCommand;
import static dev.opledger.api.HostileRequests.Spec.ascii;

import dev.opledger.api.HostileMutations.Mutation;
import dev.opledger.api.HostileRequests.Dimension;
import dev.opledger.api.HostileRequests.Spec;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * The Idempotency-Key's mutations: missing, repeated, in the forms the API accepts (quoted,
 * either case, spaces around, the header name in any case), and not a UUID: other text,
 * non-ASCII bytes, control characters.
 */
final class HostileKeyMutations {

    private HostileKeyMutations() {
    }

    static List<Mutation> all() {
        String category = "key";
        return List.of(
                refusing(Dimension.KEY, category, "Idempotency-Key missing", sendsCommand(), (spec, random) -> {
                    spec.keys.clear();
                    return "";
                }),
                refusing(Dimension.KEY, category, "two Idempotency-Keys", sendsCommand(), (spec, random) -> {
                    spec.keys.add(random.nextBoolean() ? spec.keys.getFirst() : ascii(HostileMutations.uuid(random).toString()));
                    return "";
                }),
                benign(Dimension.KEY, category, "Idempotency-Key quoted", sendsCommand(), (spec, random) -> {
                    spec.keys.set(0, ascii("\"" + spec.operationId + "\""));
                    return "";
                }),
                benign(Dimension.KEY, category, "Idempotency-Key upper-case", sendsCommand(), (spec, random) -> {
                    spec.keys.set(0, ascii(spec.operationId.toString().toUpperCase(Locale.ROOT)));
                    return "";
                }),
                benign(Dimension.KEY, category, "Idempotency-Key with spaces around", sendsCommand(), (spec, random) -> {
                    spec.keys.set(0, ascii("  " + spec.operationId + " "));
                    return "";
                }),
                benign(Dimension.KEY, category, "header name in odd case", sendsCommand(), (spec, random) -> {
                    spec.keyHeader = pick(random, "idempotency-key", "IDEMPOTENCY-KEY", "iDeMpOtEnCy-KeY");
                    return spec.keyHeader;
                }),
                refusing(Dimension.KEY, category, "Idempotency-Key not a UUID", sendsCommand(), (spec, random) -> {
                    String id = spec.operationId.toString();
                    String value = pick(random, "", "abc", "1-1-1-1-1", "00000000-0000-0000-0000-000000000000",
                            id.replace("-", ""), "{" + id + "}", "urn:uuid:" + id, id + "0", id.substring(1),
                            id.substring(0, 35) + "g", "\"" + id, "\"abc\"", randomAscii(random, 1 + random.nextInt(60)));
                    spec.keys.set(0, ascii(value));
                    return "'" + value + "'";
                }),
                refusing(Dimension.KEY, "key-non-ascii", "Idempotency-Key with non-ASCII bytes", sendsCommand(),
                        (spec, random) -> {
                            byte[] bytes = ascii(spec.operationId.toString());
                            int at = random.nextInt(bytes.length);
                            byte[] value = random.nextBoolean() ? Spec.splice(bytes, at, new byte[] {(byte) (0x80 + random.nextInt(128))})
                                    : replaced(bytes, at, (byte) (0x80 + random.nextInt(128)));
                            spec.keys.set(0, value);
                            return HexFormat.of().formatHex(value);
                        }),
                refusing(Dimension.KEY, "key-control", "Idempotency-Key with a control character", sendsCommand(),
                        (spec, random) -> {
                            byte[] bytes = ascii(spec.operationId.toString());
                            byte control = pick(random, (byte) 0x00, (byte) 0x01, (byte) 0x08, (byte) 0x09, (byte) 0x0b,
                                    (byte) 0x1b, (byte) 0x1f, (byte) 0x7f);
                            spec.keys.set(0, Spec.splice(bytes, 1 + random.nextInt(bytes.length - 2), new byte[] {control}));
                            return String.format(Locale.ROOT, "0x%02x", control);
                        }));
    }

    private static byte[] replaced(byte[] bytes, int at, byte value) {
        byte[] copy = bytes.clone();
        copy[at] = value;
        return copy;
    }
}
