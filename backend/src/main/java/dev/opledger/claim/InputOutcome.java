package dev.opledger.claim;

import java.util.List;

/** What a client's answer to an operation's open input requests did. */
public sealed interface InputOutcome {

    /**
     * The answers to open requests were recorded ({@code answered}: their keys); {@code resumed}
     * when none is left open and the operation went back to the workers (ACCEPTED).
     */
    record Recorded(List<String> answered, boolean resumed) implements InputOutcome {
    }

    /**
     * Nothing recorded: the operation awaits no input now, or none of the keys is open (never
     * issued, answered before, e.g. by a repeat of this answer). The specification says to ignore
     * such responses.
     */
    record NothingOpen() implements InputOutcome {
    }
}
