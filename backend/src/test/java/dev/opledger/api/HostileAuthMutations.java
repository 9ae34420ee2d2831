package dev.opledger.api;

import static dev.opledger.api.HostileMutations.any;
import static dev.opledger.api.HostileMutations.benign;
import static dev.opledger.api.HostileMutations.pick;
import static dev.opledger.api.HostileMutations.refusing;
import static dev.opledger.api.HostileRequests.Spec.ascii;

import dev.opledger.api.HostileMutations.Mutation;
import dev.opledger.api.HostileRequests.Dimension;
import dev.opledger.api.HostileRequests.Spec;
import dev.opledger.api.HostileRequests.Spec.Base;
import dev.opledger.testing.TestTokens;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BiFunction;

/** The token's mutations: missing, repeated, another scheme, malformed, forged, or claims a valid token must not have. */
final class HostileAuthMutations {

    private HostileAuthMutations() {
    }

    static List<Mutation> all() {
        String category = "auth";
        return List.of(
                benign(Dimension.SUBJECT, "subject", "another subject's valid token",
                        spec -> spec.base != Base.REPLAY, (spec, random) -> {
                            var others = new ArrayList<>(spec.generator.subjects());
                            others.remove(spec.subject);
                            spec.actAs(others.get(random.nextInt(others.size())));
                            return spec.subject;
                        }),
                refusing(Dimension.AUTH, category, "no Authorization", any(), (spec, random) -> {
                    spec.authorizations.clear();
                    return "";
                }),
                benign(Dimension.AUTH, category, "scheme in another case", any(), (spec, random) -> {
                    String scheme = pick(random, "bearer", "BEARER", "bEaReR");
                    spec.authorizations.set(0, ascii(scheme + " " + ForgedTokens.valid(spec.subject)));
                    return scheme;
                }),
                refusing(Dimension.AUTH, category, "another scheme or form", any(), (spec, random) -> {
                    String token = ForgedTokens.valid(spec.subject);
                    String value = pick(random, "Basic dXNlcjpwYXNz", "Token " + token, token, "Bearer", "Bearer ",
                            "Bearer\t" + token, "Bearer:" + token, "Bearer " + token + " extra", "Bearer \"" + token + "\"",
                            "Bearer " + token + "," + token, "Bearer " + token.replace('.', ','));
                    spec.authorizations.set(0, ascii(value));
                    return value.length() > 40 ? value.substring(0, 40) + "…" : value;
                }),
                refusing(Dimension.AUTH, "auth-two-headers", "two Authorization headers", any(), (spec, random) -> {
                    var others = new ArrayList<>(spec.generator.subjects());
                    others.remove(spec.subject);
                    String second = pick(random, "Bearer " + ForgedTokens.valid(spec.subject),
                            "Bearer " + ForgedTokens.valid(others.getFirst()), "Bearer not.a.jwt", "Basic dXNlcjpwYXNz");
                    spec.authorizations.add(ascii(second));
                    return "";
                }),
                token(category, "malformed JWT", (spec, random) -> pick(random, "not.a.jwt", "a.b", "a.b.c.d", "...",
                        "eyJhbGciOiJIUzI1NiJ9.e30.", HostileMutations.randomAscii(random, 20).replaceAll("[^A-Za-z0-9]", "A")
                                + "." + "QUFB" + "." + "QUFB",
                        flipOneCharacter(ForgedTokens.valid(spec.subject), random))),
                token(category, "alg none", (spec, random) -> ForgedTokens.unsigned(
                        "{\"sub\":\"" + spec.subject + "\"," + ForgedTokens.lifetime(-60, 3600) + "}")),
                token(category, "signed with another secret", (spec, random) -> ForgedTokens.signed(
                        "another-secret-another-secret-another-secret-0000",
                        "{\"sub\":\"" + spec.subject + "\"," + ForgedTokens.lifetime(-60, 3600) + "}")),
                token(category, "expired", (spec, random) -> signed("{\"sub\":\"" + spec.subject + "\","
                        + ForgedTokens.lifetime(-7200, -pick(random, 3600, 600, 120)) + "}")),
                token(category, "not yet valid", (spec, random) -> signed("{\"sub\":\"" + spec.subject + "\","
                        + ForgedTokens.lifetime(-60, 7200) + ",\"nbf\":" + (now() + 3600) + "}")),
                token(category, "sub missing, empty or not a subject", (spec, random) -> signed(pick(random,
                        "{" + ForgedTokens.lifetime(-60, 3600) + "}",
                        "{\"sub\":\"\"," + ForgedTokens.lifetime(-60, 3600) + "}",
                        "{\"sub\":\"bad\\u0000subject\"," + ForgedTokens.lifetime(-60, 3600) + "}",
                        "{\"sub\":\"tab\\there\"," + ForgedTokens.lifetime(-60, 3600) + "}",
                        "{\"sub\":\"" + "s".repeat(256) + "\"," + ForgedTokens.lifetime(-60, 3600) + "}",
                        "{\"sub\":null," + ForgedTokens.lifetime(-60, 3600) + "}"))),
                tokenOf("auth-no-exp", "no exp", (spec, random) -> signed("{\"sub\":\"" + spec.subject + "\","
                        + ForgedTokens.iat() + "}")),
                tokenOf("auth-non-string-sub", "sub not a string", (spec, random) -> signed("{\"sub\":"
                        + pick(random, "12345", "0", "1e3", "true", "[\"" + spec.subject + "\"]", "{\"id\":1}") + ","
                        + ForgedTokens.lifetime(-60, 3600) + "}")),
                tokenOf("auth-surrogate-sub", "sub with a lone surrogate", (spec, random) -> signed("{\"sub\":\""
                        + pick(random, "\\ud800", "x\\udfff", "\\ud83dx", "a\\ude00\\ud83d") + "\","
                        + ForgedTokens.lifetime(-60, 3600) + "}")));
    }

    private static Mutation token(String category, String name, BiFunction<Spec, Random, String> token) {
        return tokenOf(category, name, token);
    }

    private static Mutation tokenOf(String category, String name, BiFunction<Spec, Random, String> token) {
        return refusing(Dimension.AUTH, category, name, any(), (spec, random) -> {
            String value = token.apply(spec, random);
            spec.authorizations.set(0, ascii("Bearer " + value));
            return "";
        });
    }

    private static String signed(String claims) {
        return ForgedTokens.signed(TestTokens.TEST_SECRET, claims);
    }

    private static long now() {
        return java.time.Instant.now().getEpochSecond();
    }

    /** Changes the first character of one of the three parts: every bit of it counts, so the token no longer holds. */
    private static String flipOneCharacter(String token, Random random) {
        String[] parts = token.split("\\.");
        int part = random.nextInt(3);
        parts[part] = (parts[part].charAt(0) == 'A' ? "B" : "A") + parts[part].substring(1);
        return String.join(".", parts);
    }
}
