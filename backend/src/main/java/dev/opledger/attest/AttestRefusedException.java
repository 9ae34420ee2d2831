package dev.opledger.attest;

import org.jspecify.annotations.Nullable;

/** App Attest refused a request; {@link #check()} names the failed check where there is one. */
public class AttestRefusedException extends RuntimeException {

    private final AttestRefusal refusal;
    private final @Nullable String check;

    public AttestRefusedException(AttestRefusal refusal, String message, @Nullable String check) {
        super(message);
        this.refusal = refusal;
        this.check = check;
    }

    public AttestRefusal refusal() {
        return refusal;
    }

    public @Nullable String check() {
        return check;
    }
}
