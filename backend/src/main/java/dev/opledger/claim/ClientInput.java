package dev.opledger.claim;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One request of an operation's run for input from the client, and the client's answer once it
 * gave one. JSON as text: {@code request} is {@code {"method", "params"}} as the run asked,
 * {@code response} the client's result for it (an elicitation's {@code {"action", "content"}}).
 */
public record ClientInput(String key, String request, Instant requestedAt, @Nullable String response,
        @Nullable Instant answeredAt) {

    public boolean open() {
        return response == null;
    }
}
