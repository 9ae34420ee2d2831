package dev.opledger.classification;

import java.util.List;
import java.util.Map;

/**
 * What a double-run probe calls: {@code prepare} first (once each, e.g. writing the file an
 * edit_file probe edits), then the probed tool twice with {@code arguments}. Path arguments are
 * relative to the probe's own directory in the server's sandbox.
 */
public record ProbeRequest(List<Call> prepare, Map<String, Object> arguments) {

    public ProbeRequest {
        prepare = prepare == null ? List.of() : List.copyOf(prepare);
        arguments = arguments == null ? Map.of() : Map.copyOf(arguments);
    }

    /** One call of a tool of the probed tool's server. */
    public record Call(String tool, Map<String, Object> arguments) {

        public Call {
            arguments = arguments == null ? Map.of() : Map.copyOf(arguments);
        }
    }
}
