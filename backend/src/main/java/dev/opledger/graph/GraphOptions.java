package dev.opledger.graph;

import java.util.Set;

/**
 * How a graph is compiled for its runs.
 *
 * @param interruptBefore nodes a run stops in front of (the thread pauses with that node next)
 * @param interruptAfter nodes a run stops behind
 */
public record GraphOptions(Set<String> interruptBefore, Set<String> interruptAfter) {

    public GraphOptions {
        interruptBefore = Set.copyOf(interruptBefore);
        interruptAfter = Set.copyOf(interruptAfter);
    }

    public static GraphOptions none() {
        return new GraphOptions(Set.of(), Set.of());
    }

    public static GraphOptions interruptBefore(String... nodes) {
        return new GraphOptions(Set.of(nodes), Set.of());
    }

    public static GraphOptions interruptAfter(String... nodes) {
        return new GraphOptions(Set.of(), Set.of(nodes));
    }
}
