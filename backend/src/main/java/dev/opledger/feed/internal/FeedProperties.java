package dev.opledger.feed.internal;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The activity feed's consumer ({@code opledger.feed}); it runs on nodes with
 * {@code opledger.events.enabled} too.
 *
 * @param enabled whether this node consumes the events into the feed
 * @param groupId the consumer group: every node's feed consumer shares the partitions
 * @param deadLetterTopic where records that are not events go; default the events topic + {@code .dlt}
 */
@ConfigurationProperties("opledger.feed")
record FeedProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("opledger-activity-feed") String groupId,
        @Nullable String deadLetterTopic) {
}
