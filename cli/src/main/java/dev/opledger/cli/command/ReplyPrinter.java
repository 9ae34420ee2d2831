package dev.opledger.cli.command;

import dev.opledger.cli.http.Reply;
import java.io.PrintWriter;
import java.util.List;

/** Prints a node's reply: the status, the headers that tell what happened, then the body. */
final class ReplyPrinter {

    private static final List<String> HEADERS = List.of("Location", "Idempotent-Replayed");

    private ReplyPrinter() {
    }

    static void print(PrintWriter out, Reply reply) {
        out.println("HTTP " + reply.status());
        for (String name : HEADERS) {
            reply.header(name).ifPresent(value -> out.println(name + ": " + value));
        }
        if (!reply.body().isEmpty()) {
            out.println(reply.body());
        }
        out.flush();
    }
}
