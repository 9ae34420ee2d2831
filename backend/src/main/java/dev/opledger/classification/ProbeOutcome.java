package dev.opledger.classification;

import java.time.Instant;

/** What became of a request to probe a tool. */
public sealed interface ProbeOutcome {

    /** The probe ran (whatever the tool did) and is recorded. */
    record Probed(ToolProbe probe) implements ProbeOutcome {
    }

    /**
     * Not run, and nothing was called: the server declares no sandbox, the tool is unknown or a
     * read, the request is not readable, or an argument points outside the sandbox.
     */
    record Refused(String server, String tool, String reason) implements ProbeOutcome {
    }

    /** Another probe of the tool is running (on this node or another): its evidence is not to be mixed with a second one's. */
    record AlreadyRunning(String server, String tool, long probeId, Instant startedAt) implements ProbeOutcome {
    }
}
