package dev.opledger.tools.fault;

import java.time.Duration;

/** One injected fault. */
public sealed interface Fault {

    /** Sleeps before the call (and its effect). */
    record Delay(Duration duration) implements Fault {
    }

    /** Answers a tool error ({@code INJECTED_FAILURE}) without calling the tool: no effect. */
    record Fail() implements Fault {
    }

    /** Lets the call commit its effect, then closes the connection without answering. */
    record DropResponse() implements Fault {
    }

    /**
     * Reads {@code delay:<ms>}, {@code fail} or {@code drop-response}.
     *
     * @throws InvalidFaultException for anything else
     */
    static Fault parse(String text) {
        String fault = text.strip();
        if (fault.equals("fail")) {
            return new Fail();
        }
        if (fault.equals("drop-response")) {
            return new DropResponse();
        }
        if (fault.startsWith("delay:")) {
            try {
                long millis = Long.parseLong(fault.substring("delay:".length()).strip());
                if (millis >= 0) {
                    return new Delay(Duration.ofMillis(millis));
                }
            } catch (NumberFormatException e) {
                // falls through to the message below
            }
        }
        throw new InvalidFaultException("unknown fault '" + fault + "': use delay:<ms>, fail or drop-response");
    }
}
