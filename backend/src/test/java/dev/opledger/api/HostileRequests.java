package dev.opledger.api;

import dev.opledger.testing.RawHttp;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;

/**
 * A seeded generator of requests at the API's edge: a valid command, a replay, a read or a cancel, with
 * none, one or a few mutations of distinct dimensions (token, subject, Idempotency-Key,
 * Prefer, Accept, Content-Type, body, path, method). Whether the result is still a valid request follows from
 * the mutations chosen, so the test knows what the node owes it. The same seed and the same
 * answers generate the same requests.
 */
final class HostileRequests {

    /** The parts of a request a mutation changes; mutations apply in this order. */
    enum Dimension { SUBJECT, AUTH, KEY, HEADER, PREFER, ACCEPT, CONTENT_TYPE, BODY, FRAMING, PATH, METHOD }

    record Created(String subject, UUID operationId, String body) {
    }

    private final Random random;
    private final List<String> subjects;
    private final List<HostileMutations.Mutation> mutations;
    private final List<Created> created = new ArrayList<>();

    HostileRequests(long seed, String run, Set<String> excludedCategories) {
        this.random = new Random(seed);
        this.subjects = List.of("hostile-" + run + "-ann", "hostile-" + run + "-bob", "hostile-" + run + "-eve");
        this.mutations = HostileMutations.all().stream()
                .filter(mutation -> !excludedCategories.contains(mutation.category()))
                .toList();
    }

    /** Called by the test for each {@code Creates} the node accepted, so later requests read or replay it. */
    void accepted(HostileRequest.Creates creates) {
        created.add(new Created(creates.subject(), creates.operationId(), creates.body()));
    }

    HostileRequest next(int index) {
        var spec = new Spec(random, this);
        double base = random.nextDouble();
        if (base < 0.55 || created.isEmpty()) {
            spec.freshCommand(pick(subjects));
        } else if (base < 0.65) {
            spec.replay(pick(created));
        } else if (base < 0.75) {
            spec.cancel(pick(subjects), random.nextInt(4) == 0 ? null : pick(created));
        } else {
            spec.read(pick(subjects), random.nextInt(4) == 0 ? null : pick(created));
        }
        double count = random.nextDouble();
        int wanted = count < 0.3 ? 0 : count < 0.8 ? 1 : 2 + random.nextInt(2);
        EnumSet<Dimension> used = EnumSet.noneOf(Dimension.class);
        List<HostileMutations.Mutation> chosen = new ArrayList<>();
        for (int attempt = 0; chosen.size() < wanted && attempt < 20; attempt++) {
            var mutation = pick(mutations);
            if (!used.contains(mutation.dimension()) && mutation.appliesTo().test(spec)) {
                used.add(mutation.dimension());
                chosen.add(mutation);
            }
        }
        chosen.sort(Comparator.comparing(HostileMutations.Mutation::dimension));
        for (var mutation : chosen) {
            String variant = mutation.apply().apply(spec, random);
            if (mutation.refuses()) {
                spec.refused = true;
            }
            spec.categories.add(mutation.category());
            spec.names.add(mutation.name() + (variant.isEmpty() ? "" : " " + variant));
        }
        return spec.build(index);
    }

    <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    List<String> subjects() {
        return subjects;
    }

    List<Created> created() {
        return created;
    }

    /** The request being made; mutations change it in place. */
    static final class Spec {

        enum Base { COMMAND, REPLAY, READ, CANCEL }

        final Random random;
        final HostileRequests generator;
        final Set<String> categories = new LinkedHashSet<>();
        final List<String> names = new ArrayList<>();
        Base base = Base.COMMAND;
        String method = "POST";
        String target = "/v1/operations";
        String subject = "";
        List<byte[]> authorizations = new ArrayList<>();
        String keyHeader = "Idempotency-Key";
        List<byte[]> keys = new ArrayList<>();
        UUID operationId = new UUID(0, 0);
        List<String> contentTypes = new ArrayList<>();
        String typeJson = "\"checkout\"";
        LinkedHashMap<String, String> arguments = new LinkedHashMap<>();
        byte[] rawBody;
        /** Set by framing and header mutations: more headers, and the bytes on the wire in place of the body. */
        List<String[]> extraHeaders = new ArrayList<>();
        byte[] wireBody;
        /** The subject of the operation a read or a cancel names; null when it names nobody's. */
        String readOwner;
        /** What follows the operationId in a read's or a cancel's path. */
        String pathSuffix = "";
        boolean refused;
        /** A Prefer header (any request may carry one), and the Preference-Applied a 2xx must then carry (or none). */
        byte[] prefer;
        String preferenceApplied;
        /** An Accept header (any request may carry one); none by default. */
        byte[] accept;

        Spec(Random random, HostileRequests generator) {
            this.random = random;
            this.generator = generator;
        }

        void freshCommand(String subject) {
            actAs(subject);
            operationId = HostileMutations.uuid(random);
            keys.add(ascii(operationId.toString()));
            contentTypes.add("application/json");
            arguments = HostileMutations.validArguments(random);
        }

        void replay(Created earlier) {
            base = Base.REPLAY;
            actAs(earlier.subject());
            operationId = earlier.operationId();
            keys.add(ascii(operationId.toString()));
            contentTypes.add("application/json");
            rawBody = earlier.body().getBytes(StandardCharsets.UTF_8);
        }

        void read(String subject, Created operation) {
            base = Base.READ;
            method = "GET";
            name(subject, operation);
        }

        /** {@code POST /v1/operations/{operationId}/cancel}: no body, no Idempotency-Key (the operationId is the key). */
        void cancel(String subject, Created operation) {
            base = Base.CANCEL;
            method = "POST";
            pathSuffix = "/cancel";
            name(subject, operation);
        }

        private void name(String subject, Created operation) {
            actAs(operation == null ? subject : random.nextInt(3) == 0 ? subject : operation.subject());
            if (operation == null) {
                target = operationPath(HostileMutations.uuid(random));
                refused = true; // nobody's operation: 404
            } else {
                target = operationPath(operation.operationId());
                readOwner = operation.subject();
            }
        }

        String operationPath(UUID operationId) {
            return "/v1/operations/" + operationId + pathSuffix;
        }

        /** A read or a cancel: a request that names an operation in its path and sends no command. */
        boolean namesOperation() {
            return base == Base.READ || base == Base.CANCEL;
        }

        void actAs(String who) {
            subject = who;
            authorizations = new ArrayList<>(List.of(ascii("Bearer " + ForgedTokens.valid(who))));
        }

        boolean sendsCommand() {
            return !namesOperation();
        }

        String body() {
            if (rawBody != null) {
                return new String(rawBody, StandardCharsets.UTF_8);
            }
            var text = new StringBuilder("{\"type\":").append(typeJson).append(",\"arguments\":{");
            String separator = "";
            for (var argument : arguments.entrySet()) {
                text.append(separator).append('"').append(argument.getKey()).append("\":").append(argument.getValue());
                separator = ",";
            }
            return text.append("}}").toString();
        }

        byte[] bodyBytes() {
            return rawBody != null ? rawBody : body().getBytes(StandardCharsets.UTF_8);
        }

        HostileRequest build(int index) {
            var request = new RawHttp.Request(method, target);
            authorizations.forEach(value -> request.header("Authorization", value));
            if (prefer != null) {
                request.header("Prefer", prefer);
            }
            if (accept != null) {
                request.header("Accept", accept);
            }
            byte[] body = new byte[0];
            if (sendsCommand()) {
                keys.forEach(value -> request.header(keyHeader, value));
                contentTypes.forEach(value -> request.header("Content-Type", value));
                body = bodyBytes();
                extraHeaders.forEach(header -> request.header(header[0], header[1]));
                if (wireBody != null) {
                    request.framedByCaller().body(wireBody);
                } else {
                    request.body(body);
                }
            }
            String description = base + " " + method + " " + target + " as " + subject
                    + (names.isEmpty() ? " (unchanged)" : " with " + String.join(", ", names));
            // a cancel answers at once whatever it is asked to prefer (docs/protocol.md): never Preference-Applied
            return new HostileRequest(index, description, Set.copyOf(categories), request, expect(body),
                    base == Base.CANCEL ? null : preferenceApplied);
        }

        private HostileRequest.Expect expect(byte[] body) {
            if (refused) {
                return new HostileRequest.Refused();
            }
            return switch (base) {
                case COMMAND -> new HostileRequest.Creates(subject, operationId, new String(body, StandardCharsets.UTF_8));
                case REPLAY -> new HostileRequest.Replays(subject, operationId);
                case READ -> subject.equals(readOwner) ? new HostileRequest.Reads() : new HostileRequest.Refused();
                case CANCEL -> subject.equals(readOwner) ? new HostileRequest.Cancels() : new HostileRequest.Refused();
            };
        }

        static byte[] ascii(String text) {
            return text.getBytes(StandardCharsets.ISO_8859_1);
        }

        static byte[] splice(byte[] into, int at, byte[] inserted) {
            var out = new ByteArrayOutputStream();
            out.write(into, 0, at);
            out.writeBytes(inserted);
            out.write(into, at, into.length - at);
            return out.toByteArray();
        }
    }
}
