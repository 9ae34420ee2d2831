package dev.opledger.attest;

import dev.opledger.attest.internal.ChallengeRepository;
import dev.opledger.attest.internal.ChallengeRepository.Consumption;
import dev.opledger.attest.internal.Digests;
import dev.opledger.attest.internal.KeyCache;
import dev.opledger.attest.internal.KeyRepository;
import dev.opledger.attest.internal.StoredKey;
import dev.opledger.audit.AuditService;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.PayloadHash;
import dev.opledger.operation.SubjectId;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * App Attest for the API and the console: challenges, key registration, the check of every
 * attempt's assertion before the claim, and the devices view with revocation.
 */
@Service
public class AttestService {

    private static final SecureRandom RANDOM = new SecureRandom();
    /** The largest page of device keys the console may ask for. */
    public static final int MAX_PAGE_SIZE = 500;
    public static final int MAX_REASON_LENGTH = 500;

    private final AttestProperties properties;
    private final AppAttestVerifier verifier;
    private final ChallengeRepository challenges;
    private final KeyRepository keys;
    private final KeyCache keyCache;
    private final AuditService audit;
    private final Clock clock;
    private final Set<AppId> apps;

    AttestService(AttestProperties properties, AppAttestVerifier verifier, ChallengeRepository challenges,
            KeyRepository keys, KeyCache keyCache, AuditService audit, Clock clock) {
        this.properties = properties;
        this.verifier = verifier;
        this.challenges = challenges;
        this.keys = keys;
        this.keyCache = keyCache;
        this.audit = audit;
        this.clock = clock;
        this.apps = new HashSet<>(properties.apps().stream().map(AppId::new).toList());
    }

    /** A fresh 32-byte challenge, single use, for this subject only. */
    public IssuedChallenge issueChallenge(SubjectId subject) {
        byte[] challenge = new byte[ClientData.CHALLENGE_BYTES];
        RANDOM.nextBytes(challenge);
        var expiresAt = clock.instant().plus(properties.challengeTtl());
        challenges.issue(Digests.sha256(challenge), subject, expiresAt);
        return new IssuedChallenge(challenge, expiresAt);
    }

    /**
     * Registers a key from its attestation over SHA-256(challenge). The challenge is used up
     * whatever the outcome. A registration retried after a lost response (same key, same
     * challenge, same subject) is answered with the key it created.
     */
    public RegisteredKey registerKey(SubjectId subject, byte[] keyId, byte[] attestationObject, byte[] challenge) {
        byte[] challengeHash = Digests.sha256(challenge);
        Consumption consumption = challenges.consume(challengeHash, subject);
        if (consumption != Consumption.FRESH) {
            return alreadyRegistered(subject, keyId, challengeHash).orElseThrow(() -> refuse(
                    AttestRefusal.CHALLENGE_INVALID, consumption == Consumption.EXPIRED
                            ? "the challenge expired: fetch a new one"
                            : "the challenge is unknown, used, or not yours: fetch a new one", null));
        }
        VerifiedAttestation verified;
        try {
            verified = verifier.verifyAttestation(attestationObject, keyId, ClientData.hashOfRegistration(challenge),
                    apps, properties.environment(), clock.instant());
        } catch (AttestationRejectedException e) {
            throw refuse(AttestRefusal.ATTESTATION_INVALID, e.getMessage(), e.check().name());
        }
        return keys.insert(verified, subject, challengeHash)
                .map(registeredAt -> new RegisteredKey(keyId, verified.app(), verified.environment(), registeredAt, false))
                .orElseThrow(() -> refuse(AttestRefusal.KEY_REGISTERED, "this keyId is already registered", null));
    }

    /**
     * Checks one attempt before its claim, as PROTOCOL.md orders it: the assertion over
     * {@code challenge ‖ operationId ‖ payloadHash} with the subject's key, then, in one statement,
     * the challenge used up and the counter advanced.
     */
    public AttemptAttestation verifyAttempt(SubjectId subject, OperationId operationId, PayloadHash payloadHash,
            AttemptHeaders headers) {
        if (properties.mode() == AttestMode.OFF) {
            return new AttemptAttestation.Unattested(); // the headers are not even read
        }
        AttemptProof proof = AttemptProof.of(headers.keyId(), headers.challenge(), headers.assertion());
        if (proof == null) {
            if (properties.mode() == AttestMode.OPTIONAL) {
                return new AttemptAttestation.Unattested();
            }
            throw refuse(AttestRefusal.ATTESTATION_REQUIRED, "this node requires an App Attest assertion with every "
                    + "attempt: App-Attest-Key-Id, App-Attest-Challenge and App-Attest-Assertion", null);
        }
        StoredKey key = keyCache.find(proof.keyId())
                .filter(found -> found.subject().equals(subject))
                .orElseThrow(() -> refuse(AttestRefusal.KEY_UNKNOWN, "no key with this keyId is registered to you", null));
        VerifiedAssertion assertion;
        try {
            assertion = AppAttestVerifier.verifyAssertion(proof.assertion(),
                    ClientData.hashOfAttempt(proof.challenge(), operationId, payloadHash), key.publicKey(), key.app(),
                    -1); // the counter is checked against the stored one atomically below
        } catch (AssertionRejectedException e) {
            throw refuse(AttestRefusal.ASSERTION_INVALID, e.getMessage() + " (it must sign challenge ‖ operationId ‖ "
                    + "payloadHash of this very request)", e.check().name());
        }
        var state = keys.useChallengeAndAdvance(proof.keyId(), subject, Digests.sha256(proof.challenge()),
                assertion.counter())
                .orElseThrow(() -> refuse(AttestRefusal.KEY_UNKNOWN, "no key with this keyId is registered to you", null));
        if (state.advanced()) {
            return new AttemptAttestation.Asserted(proof.keyId(), assertion.counter());
        }
        if (state.revoked()) {
            throw refuse(AttestRefusal.KEY_UNKNOWN, "this key has been revoked", null);
        }
        boolean counterReplayed = assertion.counter() <= state.storedCounter();
        if (Boolean.TRUE.equals(state.challengeFresh()) || (state.challengeUsedBefore() && counterReplayed)) {
            throw refuse(AttestRefusal.ASSERTION_REPLAYED, "the assertion's counter " + assertion.counter()
                    + " is not greater than the last accepted one: an assertion is accepted once", "COUNTER");
        }
        throw refuse(AttestRefusal.CHALLENGE_INVALID, Boolean.FALSE.equals(state.challengeFresh())
                ? "the challenge expired: fetch a new one for every attempt"
                : "the challenge is unknown, used, or not yours: fetch a new one for every attempt", null);
    }

    @PreAuthorize("hasRole('SUPPORT')")
    public List<DeviceKey> devices(@Nullable SubjectId subject, int offset, int limit) {
        if (offset < 0 || limit < 1 || limit > MAX_PAGE_SIZE) {
            throw new IllegalArgumentException("offset must not be negative and limit must be 1 to " + MAX_PAGE_SIZE);
        }
        return keys.devices(subject, offset, limit);
    }

    /** Revokes a key: its assertions are refused from now on. Audited with the reason and where it came from. */
    @PreAuthorize("hasRole('ADMIN')")
    @Transactional
    public boolean revoke(String keyIdBase64, String reason) {
        if (reason.isBlank() || reason.strip().length() > MAX_REASON_LENGTH) {
            throw new IllegalArgumentException("give a reason of 1 to " + MAX_REASON_LENGTH + " characters for revoking a key");
        }
        byte[] keyId = Base64.getDecoder().decode(keyIdBase64);
        Authentication who = SecurityContextHolder.getContext().getAuthentication();
        String actor = who.getName();
        boolean revoked = keys.revoke(keyId, actor, reason.strip());
        if (revoked) {
            keyCache.forget(keyId);
            audit.record(actor, "REVOKE_DEVICE_KEY", keyIdBase64, reason.strip(), AuditService.clientAddress(who));
        }
        return revoked;
    }

    private java.util.Optional<RegisteredKey> alreadyRegistered(SubjectId subject, byte[] keyId, byte[] challengeHash) {
        return keys.registration(keyId)
                .filter(registration -> registration.subject().equals(subject)
                        && MessageDigest.isEqual(registration.registrationChallengeHash(), challengeHash))
                .map(registration -> new RegisteredKey(keyId, registration.app(), registration.environment(),
                        registration.registeredAt(), true));
    }

    private static AttestRefusedException refuse(AttestRefusal refusal, String message, @Nullable String check) {
        return new AttestRefusedException(refusal, message, check);
    }
}
