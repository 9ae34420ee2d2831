package dev.opledger.claim;

/**
 * An operation became ACCEPTED (claimed, or handed back after a person's approval decision),
 * committed: on this node, or on another one as its notification says. Published in-process so a
 * worker here leases it now rather than at its next poll.
 */
public record OperationAccepted() {
}
