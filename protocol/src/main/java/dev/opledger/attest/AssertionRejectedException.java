package dev.opledger.attest;

/** An assertion failed one of its checks. */
public class AssertionRejectedException extends RuntimeException {

    private final AssertionCheck check;

    public AssertionRejectedException(AssertionCheck check, String message) {
        super(message);
        this.check = check;
    }

    public AssertionCheck check() {
        return check;
    }
}
