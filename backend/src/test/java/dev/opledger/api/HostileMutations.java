package dev.opledger.api;

import static dev.opledger.api.HostileRequests.Spec.ascii;

import dev.opledger.api.HostileRequests.Dimension;
import dev.opledger.api.HostileRequests.Spec;
import dev.opledger.api.HostileRequests.Spec.Base;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * The mutations the generator draws from, each named by a category (so a run may exclude one
 * with {@code -Dopledger.hostile.exclude=…}) and marked as refusing or not: a request is valid
 * exactly when none of its mutations refuses. A mutation returns the variant it chose, for the
 * failure message.
 */
final class HostileMutations {

    record Mutation(Dimension dimension, String category, String name, boolean refuses,
            Predicate<Spec> appliesTo, BiFunction<Spec, Random, String> apply) {
    }

    private static final Predicate<Spec> COMMAND = spec -> spec.base == Base.COMMAND;
    private static final Predicate<Spec> SENDS_COMMAND = Spec::sendsCommand;
    private static final Predicate<Spec> NAMES_OPERATION = Spec::namesOperation;
    private static final Predicate<Spec> ANY = spec -> true;

    private HostileMutations() {
    }

    static List<Mutation> all() {
        List<Mutation> all = new ArrayList<>();
        all.addAll(HostileAuthMutations.all());
        all.addAll(HostileKeyMutations.all());
        all.addAll(contentTypes());
        all.addAll(HostileBodyMutations.all());
        all.addAll(framings());
        all.add(refusing(Dimension.HEADER, "header-bytes", "User-Agent with a control or non-ASCII byte", SENDS_COMMAND,
                (spec, random) -> {
                    int b = pick(random, 0x80, 0x85, 0x9f, 0x7f, 0x01);
                    spec.extraHeaders.add(new String[] {"User-Agent", "app/1.0 " + (char) b});
                    return String.format(Locale.ROOT, "0x%02x", b);
                }));
        all.addAll(paths());
        all.addAll(methods());
        all.addAll(prefers());
        all.addAll(accepts());
        return List.copyOf(all);
    }

    /**
     * {@code Prefer} (RFC 7240) on any request: never a reason to refuse one, and only a valid
     * {@code wait} is applied (the generated valid ones wait at most a second: the test's node runs
     * no workers, so an operation never settles). A control byte is refused like in any header.
     */
    private static List<Mutation> prefers() {
        String category = "prefer";
        return List.of(
                benign(Dimension.PREFER, category, "Prefer", ANY, (spec, random) -> {
                    String[][] values = {
                        {"wait=0", "wait=0"}, {"WAIT=1", "wait=1"}, {"respond-async, wait=0", "wait=0"},
                        {"wait=\"1\"", "wait=1"}, {"wait = 0 ; x=y", "wait=0"}, {"wait=0, wait=99", "wait=0"},
                        {"wait=" + "0".repeat(4000), "wait=0"}, {"foo=\"a,wait=9\", wait=0", "wait=0"},
                        {"wait=-1", null}, {"wait=1.5", null}, {"wait=abc", null}, {"wait", null}, {"wait=", null},
                        {"wait=\"\"", null}, {",,,;;;===", null}, {"wait=x, wait=9", null}, {"return=minimal", null},
                        {"\"" + randomAscii(random, 40), null}, {randomAscii(random, 1 + random.nextInt(3000)), null}};
                    String[] chosen = values[random.nextInt(values.length)];
                    spec.prefer = ascii(chosen[0]);
                    spec.preferenceApplied = chosen[1];
                    return chosen[0].length() > 40 ? chosen[0].substring(0, 40) + "…" : chosen[0];
                }),
                refusing(Dimension.PREFER, category, "Prefer with a control byte", ANY, (spec, random) -> {
                    int b = pick(random, 0x01, 0x08, 0x7f);
                    spec.prefer = ascii("wait=0" + (char) b);
                    return String.format(Locale.ROOT, "0x%02x", b);
                }));
    }

    /**
     * {@code Accept} on any request: one that takes JSON is served; one that takes no
     * {@code application/json} is refused before the handler (406 {@code not-acceptable}), so a
     * command stores nothing.
     */
    private static List<Mutation> accepts() {
        String category = "accept";
        return List.of(
                benign(Dimension.ACCEPT, category, "Accept taking JSON", ANY, (spec, random) -> {
                    String value = pick(random, "*/*", "application/json", "application/*", "APPLICATION/JSON",
                            "application/json, application/problem+json", "text/html;q=0.9, application/json;q=0.1",
                            "application/json;charset=UTF-8", "text/*, */*;q=0.01");
                    spec.accept = ascii(value);
                    return value;
                }),
                refusing(Dimension.ACCEPT, category, "Accept taking no JSON", ANY, (spec, random) -> {
                    String value = pick(random, "application/xml", "text/html", "application/problem+json",
                            "text/plain, image/png");
                    spec.accept = ascii(value);
                    return value;
                }));
    }

    static LinkedHashMap<String, String> validArguments(Random random) {
        var arguments = new LinkedHashMap<String, String>();
        arguments.put("sku", quoted(pick(random, "SKU-ESPRESSO", "SKU-MILK-FROTHER", "A", "X-" + random.nextInt(1000))));
        arguments.put("quantity", Integer.toString(1 + random.nextInt(100)));
        long cents = 1 + (long) random.nextInt(100_000_000);
        arguments.put("amount", cents / 100 + "." + String.format(Locale.ROOT, "%02d", cents % 100));
        arguments.put("currency", quoted(pick(random, "EUR", "USD", "CHF", "JPY")));
        arguments.put("recipient", quoted(pick(random, "ann@example.com", "Zoë Ødegård", "東京の顧客", "😀 customer",
                "x".repeat(200))));
        if (random.nextBoolean()) {
            arguments.put("loyaltyAccount", quoted(pick(random, "L-1", "Ärger-Konto", "\\u00e9t\\u00e9")));
        }
        if (random.nextBoolean()) {
            arguments.put("shippingAddress", quoted(pick(random, "Straße 1, Zürich", "1 Main St\\nSpringfield",
                    "🏠 \\ud83d\\ude00 home")));
        }
        return arguments;
    }

    private static List<Mutation> contentTypes() {
        String category = "content-type";
        return List.of(
                refusing(Dimension.CONTENT_TYPE, category, "Content-Type", SENDS_COMMAND, (spec, random) -> {
                    String value = pick(random, "text/plain", "application/xml", "application/x-www-form-urlencoded",
                            "application/problem+json", "application/merge-patch+json", "application/jsonx",
                            "text/json", "*/*", "???", "application", "multipart/form-data",
                            "multipart/form-data; boundary=x");
                    spec.contentTypes.set(0, value);
                    return value;
                }),
                refusing(Dimension.CONTENT_TYPE, category, "no Content-Type", SENDS_COMMAND, (spec, random) -> {
                    spec.contentTypes.clear();
                    return "";
                }),
                benign(Dimension.CONTENT_TYPE, category, "Content-Type variant", SENDS_COMMAND, (spec, random) -> {
                    String value = pick(random, "application/json; charset=utf-8", "application/json;charset=UTF-8",
                            "Application/JSON", "application/json; x=1");
                    spec.contentTypes.set(0, value);
                    return value;
                }));
    }

    private static List<Mutation> framings() {
        String category = "framing";
        return List.of(
                benign(Dimension.FRAMING, category, "chunked", SENDS_COMMAND, (spec, random) -> {
                    spec.extraHeaders.add(new String[] {"Transfer-Encoding", "chunked"});
                    spec.wireBody = chunked(spec.bodyBytes(), 1 + random.nextInt(64));
                    return "";
                }),
                refusing(Dimension.FRAMING, category, "chunks that do not parse", SENDS_COMMAND, (spec, random) -> {
                    spec.extraHeaders.add(new String[] {"Transfer-Encoding", "chunked"});
                    byte[] body = spec.bodyBytes();
                    String framing = pick(random, "zz\r\n", "-1\r\n", "ffffffffffffffffff\r\n",
                            "5\r\nabc\r\n0\r\n\r\n", "5;" + "x".repeat(9000) + "\r\nabcde\r\n0\r\n\r\n");
                    spec.wireBody = Spec.splice(ascii(framing), 0, new byte[0]);
                    return framing.length() > 20 ? framing.substring(0, 20).strip() + "…" : framing.strip();
                }),
                refusing(Dimension.FRAMING, category, "a Content-Encoding the node does not decode", SENDS_COMMAND,
                        (spec, random) -> {
                            // the body is sent as it is: a node that ignored the header would run it
                            String coding = pick(random, "gzip", "deflate", "br", "x-custom", "gzip, identity");
                            spec.extraHeaders.add(new String[] {"Content-Encoding", coding});
                            return coding;
                        }),
                benign(Dimension.FRAMING, category, "Content-Encoding identity", SENDS_COMMAND, (spec, random) -> {
                    String coding = pick(random, "identity", "IDENTITY");
                    spec.extraHeaders.add(new String[] {"Content-Encoding", coding});
                    return coding;
                }),
                refusing(Dimension.FRAMING, category, "Transfer-Encoding not implemented", SENDS_COMMAND, (spec, random) -> {
                    String coding = pick(random, "gzip", "identity", "x-custom", "chunked, gzip");
                    spec.extraHeaders.add(new String[] {"Transfer-Encoding", coding});
                    spec.wireBody = spec.bodyBytes();
                    return coding;
                }),
                refusing(Dimension.FRAMING, category, "Content-Length shorter than the body, or not a length",
                        SENDS_COMMAND, (spec, random) -> {
                            byte[] body = spec.bodyBytes();
                            String length = pick(random, Integer.toString(random.nextInt(Math.max(1, body.length))), "abc", "-1",
                                    "1,2", body.length + ", " + (body.length + 1), "0x10");
                            spec.extraHeaders.add(new String[] {"Content-Length", length});
                            spec.wireBody = body;
                            return length;
                        }));
    }

    private static byte[] chunked(byte[] body, int size) {
        var out = new java.io.ByteArrayOutputStream();
        for (int at = 0; at < body.length; at += size) {
            int length = Math.min(size, body.length - at);
            out.writeBytes(ascii(Integer.toHexString(length) + "\r\n"));
            out.write(body, at, length);
            out.writeBytes(ascii("\r\n"));
        }
        out.writeBytes(ascii("0\r\n\r\n"));
        return out.toByteArray();
    }

    private static List<Mutation> paths() {
        String category = "path";
        return List.of(
                refusing(Dimension.PATH, category, "path", ANY, (spec, random) -> {
                    String rest = spec.target.substring("/v1/".length());
                    spec.target = pick(random, "/v1//" + rest, "//v1/" + rest, "/v1/" + rest + ";x=1",
                            "/v1;x=1/" + rest, "/v1/./" + rest, "/v1/%2e%2e/v1/" + rest, "/v1/%2E/" + rest,
                            "/v1/" + rest + "%00", "/v1/%00/" + rest, "/v1/" + rest + "%0d%0a", "/v1/" + rest + "%0a",
                            "/v1/" + rest + "%2f", "/v1/" + rest + "%5c", "/v1/" + rest + "/..", "/v1/" + rest + "/",
                            "/v1/" + rest + "%C3%A9", "/v1/nothing-here", "/v1", "/v1/",
                            "/v1/operations/nope", "/v1/operations/" + "9".repeat(36), "/v1/operations/%20",
                            "/v1/" + rest + "/" + rest);
                    return spec.target;
                }),
                refusing(Dimension.PATH, category, "raw bytes in the path", ANY, (spec, random) -> {
                    String raw = pick(random, "\u00e9", "\u0080", "\u00ff", "{x}", "|", "\"", "<>", "\\", "`", "^");
                    spec.target = spec.target + raw;
                    return HexFormat.of().formatHex(ascii(raw));
                }),
                benign(Dimension.PATH, category, "operationId upper-case in the path", NAMES_OPERATION, (spec, random) -> {
                    if (spec.readOwner == null) {
                        return "(no operation)";
                    }
                    spec.target = "/v1/operations/" + spec.target.substring("/v1/operations/".length(),
                            "/v1/operations/".length() + 36).toUpperCase(Locale.ROOT) + spec.pathSuffix;
                    return "";
                }),
                refusing(Dimension.PATH, category, "another subject's operationId", NAMES_OPERATION, (spec, random) -> {
                    var others = spec.generator.created().stream().filter(c -> !c.subject().equals(spec.subject)).toList();
                    if (others.isEmpty()) {
                        spec.target = spec.operationPath(uuid(random));
                        return "(none yet: a random one)";
                    }
                    var other = others.get(random.nextInt(others.size()));
                    spec.target = spec.operationPath(other.operationId());
                    return other.subject();
                }));
    }

    private static List<Mutation> methods() {
        String category = "method";
        return List.of(refusing(Dimension.METHOD, category, "method", ANY, (spec, random) -> {
            String method = spec.base == Base.READ
                    ? pick(random, "get", "Get", "POST", "PUT", "DELETE", "PATCH", "TRACE", "FOO", "CONNECT")
                    : pick(random, "post", "Post", "GET", "PUT", "DELETE", "PATCH", "TRACE", "FOO", "PROPFIND");
            spec.method = method;
            return method;
        }));
    }

    static Mutation refusing(Dimension dimension, String category, String name, Predicate<Spec> appliesTo,
            BiFunction<Spec, Random, String> apply) {
        return new Mutation(dimension, category, name, true, appliesTo, apply);
    }

    static Mutation benign(Dimension dimension, String category, String name, Predicate<Spec> appliesTo,
            BiFunction<Spec, Random, String> apply) {
        return new Mutation(dimension, category, name, false, appliesTo, apply);
    }

    static Predicate<Spec> command() {
        return COMMAND;
    }

    static Predicate<Spec> sendsCommand() {
        return SENDS_COMMAND;
    }

    static Predicate<Spec> any() {
        return ANY;
    }

    /** A random UUID from the seeded generator, never the nil one. */
    static java.util.UUID uuid(Random random) {
        return new java.util.UUID(random.nextLong() | 1, random.nextLong());
    }

    @SafeVarargs
    static <T> T pick(Random random, T... values) {
        return values[random.nextInt(values.length)];
    }

    static String quoted(String json) {
        return "\"" + json + "\"";
    }

    static String randomAscii(Random random, int length) {
        var text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            char c = (char) (0x21 + random.nextInt(0x5e));
            text.append(c == '"' || c == '\\' ? 'x' : c);
        }
        return text.toString();
    }
}
