package dev.opledger.cli.http;

/** The node answered something other than what the protocol promises, e.g. no challenge. */
public class UnexpectedReplyException extends RuntimeException {

    private final Reply reply;

    public UnexpectedReplyException(String message, Reply reply) {
        super(message);
        this.reply = reply;
    }

    public Reply reply() {
        return reply;
    }
}
