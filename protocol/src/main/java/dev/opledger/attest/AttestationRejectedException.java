package dev.opledger.attest;

/** An attestation failed one of its checks; nothing was stored. */
public class AttestationRejectedException extends RuntimeException {

    private final AttestationCheck check;

    public AttestationRejectedException(AttestationCheck check, String message) {
        super(message);
        this.check = check;
    }

    public AttestationRejectedException(AttestationCheck check, String message, Throwable cause) {
        super(message, cause);
        this.check = check;
    }

    public AttestationCheck check() {
        return check;
    }
}
