package dev.opledger.cli.load;

import java.util.Arrays;
import java.util.List;

/**
 * What one client's loop of a claim-like load counted ({@link ClaimLoad}, {@link McpTaskLoad}):
 * answers as expected, requests sent, anything else, and the latency of each expected answer.
 */
record Tally(long claims, long requests, long unexpected, long[] latencies) {

    /** The clients' tallies of one measured phase of {@code seconds}, summed. */
    static LoadResult sum(List<Tally> tallies, double seconds) {
        long claims = 0;
        long requests = 0;
        long unexpected = 0;
        for (Tally tally : tallies) {
            claims += tally.claims();
            requests += tally.requests();
            unexpected += tally.unexpected();
        }
        long[] all = tallies.stream().map(Tally::latencies).flatMapToLong(Arrays::stream).toArray();
        return new LoadResult(claims, requests, unexpected, seconds, all);
    }
}
