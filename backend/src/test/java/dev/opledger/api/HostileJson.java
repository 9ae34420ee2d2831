package dev.opledger.api;

import java.util.Random;

/** Random JSON text, now and then with the command's member names, for bodies of the wrong shape. */
final class HostileJson {

    private static final String[] NAMES = {"type", "arguments", "sku", "quantity", "amount", "a", "", "é", "😀"};
    private static final String[] STRINGS = {"checkout", "", "x", "EUR", "ann@example.com", "\\u00e9", "\\ud83d\\ude00",
        "\\n", "\\\"", "\\\\"};
    private static final String[] NUMBERS = {"0", "-0", "1", "-1", "100", "49.90", "1e2", "-1.5E-3", "0.01", "1000000"};

    private HostileJson() {
    }

    static String value(Random random, int depth) {
        int kind = random.nextInt(depth >= 4 ? 4 : 6);
        return switch (kind) {
            case 0 -> "\"" + STRINGS[random.nextInt(STRINGS.length)] + "\"";
            case 1 -> NUMBERS[random.nextInt(NUMBERS.length)];
            case 2 -> random.nextBoolean() ? "true" : "false";
            case 3 -> "null";
            case 4 -> array(random, depth);
            default -> object(random, depth);
        };
    }

    private static String array(Random random, int depth) {
        var text = new StringBuilder("[");
        int size = random.nextInt(4);
        for (int i = 0; i < size; i++) {
            text.append(i == 0 ? "" : ",").append(value(random, depth + 1));
        }
        return text.append(']').toString();
    }

    private static String object(Random random, int depth) {
        var text = new StringBuilder("{");
        int size = random.nextInt(4);
        for (int i = 0; i < size; i++) {
            // a name may repeat: duplicate members are one more way to be malformed
            text.append(i == 0 ? "" : ",").append('"').append(NAMES[random.nextInt(NAMES.length)]).append("\":")
                    .append(value(random, depth + 1));
        }
        return text.append('}').toString();
    }
}
