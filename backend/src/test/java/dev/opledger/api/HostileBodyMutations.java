package dev.opledger.api;

import static dev.opledger.api.HostileMutations.command;
import static dev.opledger.api.HostileMutations.pick;
import static dev.opledger.api.HostileMutations.quoted;

import dev.opledger.api.HostileMutations.Mutation;
import dev.opledger.api.HostileRequests.Dimension;
import dev.opledger.api.HostileRequests.Spec;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.function.BiFunction;

/**
 * The command body's mutations, each refused: not JSON, not the command's shape, arguments
 * against the schema, numbers no double holds, characters PostgreSQL's jsonb does not store
 * ({@code \u0000}), lone surrogates, bytes that are not UTF-8, and sizes over the limits.
 */
final class HostileBodyMutations {

    private static final int MAX_BODY = 64 * 1024;
    private static final List<String> REQUIRED = List.of("sku", "quantity", "amount", "currency", "recipient");

    private HostileBodyMutations() {
    }

    static List<Mutation> all() {
        return List.of(
                body("body", "random JSON", (spec, random) -> {
                    spec.rawBody = HostileJson.value(random, 0).getBytes(StandardCharsets.UTF_8);
                    return abbreviated(spec.body());
                }),
                body("body", "argument of the wrong type", (spec, random) -> {
                    String name = random.nextBoolean() ? "quantity" : pick(random, REQUIRED.toArray(String[]::new));
                    boolean number = name.equals("quantity") || name.equals("amount");
                    String value = number ? pick(random, "\"1\"", "true", "null", "[1]", "{}", "\"\"")
                            : pick(random, "1", "0.5", "true", "null", "[]", "{\"a\":\"b\"}", "[\"EUR\"]");
                    spec.arguments.put(name, value);
                    return name + "=" + value;
                }),
                body("body", "argument missing or extra", (spec, random) -> {
                    if (random.nextBoolean()) {
                        String name = pick(random, REQUIRED.toArray(String[]::new));
                        spec.arguments.remove(name);
                        return "without " + name;
                    }
                    String name = pick(random, "coupon", "Quantity", "sku ", "", "__proto__", "loyaltyaccount");
                    spec.arguments.put(name, "\"x\"");
                    return "with '" + name + "'";
                }),
                body("body", "argument out of range", (spec, random) -> {
                    String[] change = pick(random, new String[] {"quantity", "0"}, new String[] {"quantity", "101"},
                            new String[] {"quantity", "-1"}, new String[] {"quantity", "1.5"},
                            new String[] {"amount", "0"}, new String[] {"amount", "-0.01"},
                            new String[] {"amount", "1000000.01"}, new String[] {"amount", "1.001"},
                            new String[] {"currency", "\"eur\""}, new String[] {"currency", "\"EURO\""},
                            new String[] {"sku", "\"sku lower\""}, new String[] {"sku", "\"\""},
                            new String[] {"recipient", "\"\""}, new String[] {"recipient", quoted("r".repeat(201))});
                    spec.arguments.put(change[0], change[1]);
                    return change[0] + "=" + abbreviated(change[1]);
                }),
                body("body", "command type", (spec, random) -> {
                    spec.typeJson = pick(random, "\"refund\"", "\"Checkout\"", "\"checkout \"", "\"\"", "7", "null",
                            "[\"checkout\"]", "{\"name\":\"checkout\"}", "\"" + "c".repeat(101) + "\"", "\"1checkout\"",
                            "\"check out\"", "\"checkout/../x\"");
                    return spec.typeJson;
                }),
                body("body", "not the command's shape", (spec, random) -> {
                    String arguments = spec.body().substring(spec.body().indexOf("\"arguments\":") + 12, spec.body().length() - 1);
                    String value = pick(random, "", "null", "[]", "42", "\"checkout\"", "{}", "{\"type\":\"checkout\"}",
                            "{\"arguments\":" + arguments + "}", "{\"type\":\"checkout\",\"arguments\":[]}",
                            "{\"type\":\"checkout\",\"arguments\":null}", "{\"type\":\"checkout\",\"arguments\":\"{}\"}",
                            "[" + spec.body() + "]", spec.body().replace("}}", "},\"extra\":1}"),
                            "{\"Type\":\"checkout\",\"arguments\":" + arguments + "}");
                    spec.rawBody = value.getBytes(StandardCharsets.UTF_8);
                    return abbreviated(value);
                }),
                body("body", "not JSON", (spec, random) -> {
                    String body = spec.body();
                    String value = pick(random, body.substring(0, 1 + random.nextInt(body.length() - 1)),
                            body + pick(random, "x", "}", ",", "{}", "\u0000", "//"),
                            body.replace("\"", "'"), body.replace(":", "="), body.replaceFirst("\\{", "{/*c*/"),
                            body.replaceFirst("\"quantity\":(\\d+)", "\"quantity\":0$1"),
                            body.replaceFirst("\"quantity\":(\\d+)", "\"quantity\":NaN"),
                            body.replaceFirst("\"quantity\":(\\d+)", "\"quantity\":+$1"),
                            body.replaceFirst(",", ",,"), "not json", "{", "}", "\"unterminated",
                            HostileMutations.randomAscii(random, 1 + random.nextInt(200)));
                    spec.rawBody = value.getBytes(StandardCharsets.UTF_8);
                    return abbreviated(value);
                }),
                body("body", "duplicate member names", (spec, random) -> {
                    String body = spec.body();
                    String value = random.nextBoolean()
                            ? body.replaceFirst("\\{\"type\":", "{\"type\":\"refund\",\"type\":")
                            : body.replaceFirst("\"quantity\":", "\"quantity\":1,\"quantity\":");
                    spec.rawBody = value.getBytes(StandardCharsets.UTF_8);
                    return "";
                }),
                body("body", "nested too deep", (spec, random) -> {
                    int depth = 65 + random.nextInt(2000);
                    boolean arrays = random.nextBoolean();
                    String open = arrays ? "[" : "{\"a\":";
                    String close = arrays ? "]" : "}";
                    spec.arguments.put("sku", open.repeat(depth) + "1" + close.repeat(depth));
                    return depth + (arrays ? " arrays" : " objects");
                }),
                body("body", "too large", (spec, random) -> {
                    int size = MAX_BODY + 1 + random.nextInt(3 * MAX_BODY);
                    spec.arguments.put("recipient", quoted("x".repeat(size)));
                    return size + " bytes of recipient";
                }),
                body("body", "empty or blank", (spec, random) -> {
                    spec.rawBody = pick(random, "", " ", "\r\n", "\t").getBytes(StandardCharsets.UTF_8);
                    return "";
                }),
                body("body-huge-number", "a number no double holds", (spec, random) -> {
                    String name = random.nextBoolean() ? "quantity" : "amount";
                    String value = pick(random, "1e30", "1e300", "-1e300", "1E+300", "1e400", "-1e400", "1e-400",
                            "123456789012345678901234567890", "1" + "0".repeat(400), "0." + "0".repeat(400) + "1",
                            "1e2147483648", "9223372036854775808");
                    spec.arguments.put(name, value);
                    return name + "=" + abbreviated(value);
                }),
                body("body-nul", "U+0000 in the body", (spec, random) -> {
                    switch (random.nextInt(3)) {
                        case 0 -> spec.arguments.put("recipient", "\"ann\\u0000@example.com\"");
                        case 1 -> spec.arguments.put("shippingAddress", "\"\\u0000\"");
                        default -> spec.arguments.put("extra\\u0000", "1");
                    }
                    return "";
                }),
                body("body-nul", "a raw NUL byte in a string", (spec, random) -> {
                    spec.rawBody = insertIntoRecipient(spec, new byte[] {0});
                    return "";
                }),
                body("body-surrogate", "an escaped lone surrogate", (spec, random) -> {
                    String escape = pick(random, "\\ud800", "\\udfff", "\\ud83d", "\\ude00\\ud83d", "x\\udbff");
                    spec.arguments.put(random.nextBoolean() ? "recipient" : "shippingAddress", quoted("a" + escape + "b"));
                    return escape;
                }),
                body("body-invalid-utf8", "bytes that are not UTF-8", (spec, random) -> {
                    byte[] bad = pick(random, bytes("c0af"), bytes("e080af"), bytes("f08080af"), bytes("ff"), bytes("fe"),
                            bytes("80"), bytes("bf"), bytes("e282"), bytes("f4908080"), bytes("c328"), bytes("eda080"),
                            bytes("edbfbf"), bytes("eda0bdedb880"));
                    spec.rawBody = insertIntoRecipient(spec, bad);
                    return HexFormat.of().formatHex(bad);
                }));
    }

    private static Mutation body(String category, String name, BiFunction<Spec, Random, String> apply) {
        return HostileMutations.refusing(Dimension.BODY, category, name, command(), apply);
    }

    private static byte[] insertIntoRecipient(Spec spec, byte[] inserted) {
        byte[] body = spec.body().getBytes(StandardCharsets.UTF_8);
        int at = spec.body().substring(0, spec.body().indexOf("\"recipient\":\"") + 13).getBytes(StandardCharsets.UTF_8).length;
        return Spec.splice(body, at, inserted);
    }

    private static byte[] bytes(String hex) {
        return HexFormat.of().parseHex(hex);
    }

    private static String abbreviated(String text) {
        return text.length() > 60 ? text.substring(0, 60) + "…" : text;
    }
}
