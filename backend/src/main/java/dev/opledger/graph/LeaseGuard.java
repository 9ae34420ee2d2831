package dev.opledger.graph;

/** Whether the worker still holds an operation's lease (heartbeats renew it; another node may take it over). */
@FunctionalInterface
public interface LeaseGuard {

    boolean held();
}
