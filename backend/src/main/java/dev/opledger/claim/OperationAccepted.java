package dev.opledger.claim;

/**
 * An operation became ACCEPTED on this node (claimed, or handed back after a person's approval
 * decision), committed. Published in-process so a worker here can lease it now rather than at its
 * next poll; workers on other nodes still find it by polling.
 */
public record OperationAccepted() {
}
