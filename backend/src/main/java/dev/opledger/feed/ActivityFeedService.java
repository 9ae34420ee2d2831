package dev.opledger.feed;

import dev.opledger.feed.internal.FeedEntries;
import dev.opledger.operation.SubjectId;
import java.util.List;
import org.springframework.stereotype.Service;

/** What the app may show a subject: their operations' events, newest first. */
@Service
public class ActivityFeedService {

    /** The most entries one read returns. */
    public static final int MAX_ENTRIES = 200;

    private final FeedEntries entries;

    ActivityFeedService(FeedEntries entries) {
        this.entries = entries;
    }

    public List<FeedEntry> recent(SubjectId subject, int limit) {
        if (limit < 1 || limit > MAX_ENTRIES) {
            throw new IllegalArgumentException("a feed read returns 1 to " + MAX_ENTRIES + " entries");
        }
        return entries.recent(subject, limit);
    }
}
