package dev.opledger.effect.internal;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * One lock per key in use (an operation's step key), so that two performs of one effect in one
 * node run one after the other: the second finds the first's record and follows it instead of
 * calling too. Across nodes the lease epoch does this (only the holder's records are written). A
 * key's lock is dropped when no one holds or waits for it.
 */
public final class StepLocks {

    private static final class Entry {
        final ReentrantLock lock = new ReentrantLock();
        int users;
    }

    private final ConcurrentHashMap<String, Entry> locks = new ConcurrentHashMap<>();

    public <T> T holding(String key, Supplier<T> body) {
        Entry entry = locks.compute(key, (k, existing) -> {
            Entry used = existing == null ? new Entry() : existing;
            used.users++;
            return used;
        });
        entry.lock.lock();
        try {
            return body.get();
        } finally {
            entry.lock.unlock();
            locks.computeIfPresent(key, (k, used) -> --used.users == 0 ? null : used);
        }
    }

    /** Keys held or waited for now; for tests. */
    int size() {
        return locks.size();
    }
}
