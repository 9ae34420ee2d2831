package dev.opledger.mcpserver.internal;

import dev.opledger.operation.SubjectId;
import io.modelcontextprotocol.modern.McpException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The {@code requestState} of a synchronous multi-round-trip {@code tools/call} (MRTR, 2026-07-28
 * "Multi Round-Trip Requests"): what the node asked, sealed so that the client can only echo it.
 * The spec makes it attacker-controlled input: where it influences what the server does it must
 * be integrity-protected and state failing verification rejected. Here it is: HMAC-SHA256 over
 * the authenticated subject, the tool, a digest of the arguments (canonical JSON), the keys of
 * the requests asked, a random round id and an expiry ({@value #TTL_MINUTES} min). A state that
 * is forged or altered, another subject's, for another tool or other arguments, or expired, is
 * refused with -32602 and nothing happens: a client cannot skip the input, answer another
 * round, or act for another subject (the subject is always the token's, never the state's). The
 * key is the node's cluster-wide secret in {@code mcp_request_state_key}, made once by the first
 * node that needs it, so any node can open a state another sealed. The SDK wraps the state in
 * an envelope of its own (its {@code HmacRequestStateCodec}: method, tool, principal, expiry),
 * keyed from the same secret ({@link #sdkKey}).
 *
 * <p>Not single-use by itself (the spec's warning): what the round leads to must be idempotent —
 * the operation a round creates takes its operationId from the round id ({@link Opened#operationId}),
 * so a replayed final round finds the same operation and task.
 */
@Component
class RequestStates {

    static final int TTL_MINUTES = 10;
    private static final String KEY_NAME = "request-state";
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder B64D = Base64.getUrlDecoder();

    /** A verified state: the round's id and the keys it asked. */
    record Opened(String round, List<String> keys) {

        /** The operationId of what this round creates: the same for every replay of it. */
        UUID operationId() {
            return UUID.nameUUIDFromBytes(("mrtr:" + round).getBytes(StandardCharsets.UTF_8));
        }
    }

    private final JdbcTemplate jdbc;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private volatile byte @Nullable [] key;

    @Autowired
    RequestStates(JdbcTemplate jdbc) {
        this(jdbc, Clock.systemUTC());
    }

    RequestStates(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** A new round's state for these request keys. */
    String seal(SubjectId subject, String tool, Map<String, Object> arguments, List<String> keys) {
        byte[] round = new byte[16];
        random.nextBytes(round);
        Map<String, Object> payload = new TreeMap<>();
        payload.put("sub", subject.value());
        payload.put("tool", tool);
        payload.put("args", digest(arguments));
        payload.put("keys", List.copyOf(keys));
        payload.put("round", B64.encodeToString(round));
        payload.put("exp", clock.instant().plus(Duration.ofMinutes(TTL_MINUTES)).toEpochMilli());
        byte[] body = InputResponses.write(payload).getBytes(StandardCharsets.UTF_8);
        return B64.encodeToString(body) + "." + B64.encodeToString(mac(body));
    }

    /** The verified state, or -32602 when it is not one this node sealed for this subject, tool and arguments, now. */
    Opened open(String state, SubjectId subject, String tool, Map<String, Object> arguments) {
        int dot = state.indexOf('.');
        byte[] body;
        byte[] tag;
        try {
            if (dot < 1 || state.length() > 4096) {
                throw refused();
            }
            body = B64D.decode(state.substring(0, dot));
            tag = B64D.decode(state.substring(dot + 1));
        } catch (IllegalArgumentException e) {
            throw refused();
        }
        if (!MessageDigest.isEqual(mac(body), tag)) {
            throw refused();
        }
        Map<String, Object> payload = InputResponses.read(new String(body, StandardCharsets.UTF_8));
        if (!subject.value().equals(payload.get("sub")) || !tool.equals(payload.get("tool"))
                || !digest(arguments).equals(payload.get("args"))) {
            throw refused();
        }
        if (!(payload.get("exp") instanceof Number expiry)
                || Instant.ofEpochMilli(expiry.longValue()).isBefore(clock.instant())) {
            throw McpException.invalidParams("requestState has expired: call the tool again without it");
        }
        List<String> keys = new ArrayList<>();
        if (payload.get("keys") instanceof List<?> list) {
            list.forEach(k -> keys.add(String.valueOf(k)));
        }
        return new Opened(String.valueOf(payload.get("round")), List.copyOf(keys));
    }

    private static McpException refused() {
        return McpException.invalidParams("requestState is not valid for this request: echo the requestState of "
                + "the InputRequiredResult unchanged, with the same tool and arguments");
    }

    private static String digest(Map<String, Object> arguments) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256")
                    .digest(InputResponses.write(canonical(arguments)).getBytes(StandardCharsets.UTF_8));
            return B64.encodeToString(hash);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    // sorted keys at every level: the same arguments, however the client ordered them, digest alike
    private static Object canonical(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> sorted = new TreeMap<>();
            map.forEach((k, v) -> sorted.put(String.valueOf(k), v == null ? null : canonical(v)));
            return sorted;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(v -> v == null ? null : canonical(v)).toList();
        }
        return value;
    }

    /** The SDK's request-state codec's key: derived from the cluster's key, apart from this class's own. */
    byte[] sdkKey() {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key(), "HmacSHA256"));
            return mac.doFinal("sdk-request-state-codec".getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private byte[] mac(byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key(), "HmacSHA256"));
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private byte[] key() {
        byte[] known = key;
        if (known == null) {
            byte[] fresh = new byte[32];
            random.nextBytes(fresh);
            // the first node to need it makes it; every other node (and every later start) reads that one
            jdbc.update("INSERT INTO mcp_request_state_key (name, secret) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                    KEY_NAME, fresh);
            known = jdbc.queryForObject("SELECT secret FROM mcp_request_state_key WHERE name = ?", byte[].class,
                    KEY_NAME);
            key = known;
        }
        return ByteBuffer.wrap(known).array();
    }
}
