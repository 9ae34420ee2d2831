package dev.opledger.cli.command;

import dev.opledger.attest.ClientData;
import dev.opledger.cli.http.AttemptHeaders;
import dev.opledger.cli.http.Challenge;
import dev.opledger.cli.http.Reply;
import dev.opledger.cli.store.StoredOperation;
import dev.opledger.operation.Command;
import dev.opledger.operation.OperationId;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;

/**
 * One attempt of a stored operation (PROTOCOL.md, "Every attempt of an operation"): a fresh
 * challenge, clientDataHash = SHA-256(challenge ‖ operationId ‖ payloadHash), the next counter
 * written to disk, the assertion, then {@code POST /v1/operations} with the stored body's exact
 * bytes.
 */
final class OperationAttempt {

    private OperationAttempt() {
    }

    /**
     * Sends it and prints the reply; 0 for a 2xx reply, 1 otherwise. With a positive {@code wait}
     * the node answers once the operation settled, or after the wait.
     */
    static int send(DeviceSession session, StoredOperation operation, Clock clock, Duration wait, PrintWriter out) {
        OperationId operationId = OperationId.parse(operation.operationId());
        byte[] body = operation.body();
        Command command = Command.parse(body);
        try (var node = session.client()) {
            Challenge challenge = node.challenge(session.token());
            byte[] clientDataHash = ClientData.hashOfAttempt(challenge.bytes(), operationId, command.payloadHash());
            long counter = session.store().nextCounter(session.device().name());
            byte[] assertion = session.simulated(clock, counter - 1).assertion(clientDataHash);
            Reply reply = node.submit(session.token(),
                    new AttemptHeaders(operationId, session.device().keyId(), challenge, assertion), body, wait);
            ReplyPrinter.print(out, reply);
            return reply.successful() ? 0 : 1;
        }
    }
}
