package dev.opledger.api;

import dev.opledger.attest.AttemptProof.Codec;
import dev.opledger.attest.AttestRefusedException;
import dev.opledger.attest.AttestService;
import dev.opledger.attest.IssuedChallenge;
import dev.opledger.attest.RegisteredKey;
import dev.opledger.operation.IJson;
import dev.opledger.operation.MalformedCommandException;
import dev.opledger.operation.SubjectId;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.time.Instant;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /v1/attest/challenges} issues a single-use challenge; {@code POST /v1/attest/keys}
 * registers a device key from its attestation (PROTOCOL.md, "Registering a device key").
 */
@RestController
class AttestController {

    record ChallengeResponse(String challenge, Instant expiresAt) {
    }

    record KeyResponse(String keyId, String app, String environment, Instant registeredAt) {
    }

    private final AttestService attest;
    private final RequestBodyReader bodies;

    AttestController(AttestService attest, RequestBodyReader bodies) {
        this.attest = attest;
        this.bodies = bodies;
    }

    @PostMapping("/v1/attest/challenges")
    ResponseEntity<ChallengeResponse> challenge(Authentication caller) {
        IssuedChallenge issued = attest.issueChallenge(new SubjectId(caller.getName()));
        return ResponseEntity.status(HttpStatus.CREATED)
                .cacheControl(CacheControl.noStore())
                .body(new ChallengeResponse(Codec.toBase64Url(issued.challenge()), issued.expiresAt()));
    }

    @PostMapping(path = "/v1/attest/keys", consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<KeyResponse> register(Authentication caller, HttpServletRequest request) throws IOException {
        JsonNode body = readObject(bodies.read(request, null));
        byte[] keyId = decode(() -> Codec.base64(field(body, "keyId"), "keyId"));
        byte[] attestationObject = decode(() -> Codec.base64(field(body, "attestationObject"), "attestationObject"));
        byte[] challenge = decode(() -> Codec.base64Url(field(body, "challenge"), "challenge"));
        RegisteredKey key;
        try {
            key = attest.registerKey(new SubjectId(caller.getName()), keyId, attestationObject, challenge);
        } catch (AttestRefusedException e) {
            throw new AttestProblem(e, null);
        }
        return ResponseEntity.status(key.replayed() ? HttpStatus.OK : HttpStatus.CREATED)
                .body(new KeyResponse(Codec.toBase64(key.keyId()), key.app().value(), key.environment().name(),
                        key.registeredAt()));
    }

    // Read as strictly as a command (IJson): a repeated member must not pick which key is registered.
    private static JsonNode readObject(byte[] body) {
        try {
            JsonNode node = IJson.read(body).tree();
            if (node.isObject()) {
                return node;
            }
        } catch (MalformedCommandException e) {
            // answered below
        }
        throw malformed("the body must be a JSON object {\"keyId\", \"attestationObject\", \"challenge\"}, "
                + "UTF-8 without repeated members");
    }

    private static String field(JsonNode body, String name) {
        JsonNode value = body.get(name);
        if (value == null || !value.isString() || value.asString().isBlank()) {
            throw malformed("\"" + name + "\" must be a non-empty string");
        }
        return value.asString();
    }

    private static byte[] decode(java.util.function.Supplier<byte[]> decoding) {
        try {
            return decoding.get();
        } catch (IllegalArgumentException e) {
            throw malformed(e.getMessage());
        }
    }

    private static ApiException malformed(String detail) {
        return new ApiException(ProblemType.MALFORMED_BODY, detail, null);
    }
}
