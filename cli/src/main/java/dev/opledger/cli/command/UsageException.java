package dev.opledger.cli.command;

/** The user asked for something that cannot be done as asked: exit code 2, no stack trace. */
class UsageException extends RuntimeException {

    UsageException(String message) {
        super(message);
    }
}
