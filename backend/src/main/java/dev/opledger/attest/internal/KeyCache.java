package dev.opledger.attest.internal;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * Registered keys by keyId. What is cached never changes for a keyId (subject, public key, app,
 * environment); revocation and the counter are checked in the attempt statement, so a node that
 * still caches a key another node revoked refuses its assertions all the same.
 */
@Component
public class KeyCache {

    private final KeyRepository keys;
    private final Cache<ByteBuffer, StoredKey> cache = Caffeine.newBuilder()
            .maximumSize(100_000)
            .expireAfterAccess(Duration.ofHours(1))
            .build();

    KeyCache(KeyRepository keys) {
        this.keys = keys;
    }

    public Optional<StoredKey> find(byte[] keyId) {
        ByteBuffer id = ByteBuffer.wrap(keyId.clone());
        StoredKey cached = cache.getIfPresent(id);
        if (cached != null) {
            return Optional.of(cached);
        }
        Optional<StoredKey> stored = keys.find(keyId);
        stored.ifPresent(key -> cache.put(id, key));
        return stored;
    }

    public void forget(byte[] keyId) {
        cache.invalidate(ByteBuffer.wrap(keyId));
    }
}
