package dev.opledger.classification.internal;

import dev.opledger.classification.ToolClass;
import dev.opledger.mcp.ToolRef;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * The classes this node has read, so that an effect does not read the database for its tool's
 * class. It is only trusted while {@link RegistryNotifications} listens: a write on any node
 * drops the tool's entry here when it commits; while the listener is not connected (it may have
 * missed a notification) nothing is served from here.
 */
@Component
public class ToolClassCache {

    private final ConcurrentHashMap<ToolRef, ToolClass> classes = new ConcurrentHashMap<>();
    /** Counts drops, so a class read before a drop is not stored after it. */
    private final AtomicLong generation = new AtomicLong();
    private volatile boolean trusted;

    public @Nullable ToolClass get(ToolRef tool) {
        return trusted ? classes.get(tool) : null;
    }

    /** To be read before the database, and handed to {@link #put}. */
    public long generation() {
        return generation.get();
    }

    /** Stores a class read from the database, unless something was dropped since {@code readAt}. */
    public void put(ToolRef tool, ToolClass toolClass, long readAt) {
        if (!trusted) {
            return;
        }
        classes.put(tool, toolClass);
        if (generation.get() != readAt) {
            // a drop raced with the read: it may have been of this tool, and the read may predate it
            classes.remove(tool, toolClass);
        }
    }

    public void drop(ToolRef tool) {
        generation.incrementAndGet();
        classes.remove(tool);
    }

    public void dropAll() {
        generation.incrementAndGet();
        classes.clear();
    }

    /** While listening: entries may be served. Not listening: everything is dropped and nothing served. */
    void trust(boolean listening) {
        dropAll();
        trusted = listening;
    }

    boolean trusted() {
        return trusted;
    }

    int size() {
        return classes.size();
    }
}
