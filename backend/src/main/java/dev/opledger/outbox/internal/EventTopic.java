package dev.opledger.outbox.internal;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Creates the events topic when it is missing, and says which it was. */
final class EventTopic {

    private static final Logger log = LoggerFactory.getLogger(EventTopic.class);

    private EventTopic() {
    }

    /** True once the topic exists (created now or before); false when the broker did not answer in time. */
    static boolean ensure(Map<String, Object> adminSettings, String topic, int partitions) throws InterruptedException {
        try (Admin admin = Admin.create(adminSettings)) {
            if (admin.listTopics().names().get(10, TimeUnit.SECONDS).contains(topic)) {
                log.info("events topic {} exists", topic);
                return true;
            }
            admin.createTopics(List.of(new NewTopic(topic, Optional.of(partitions), Optional.empty())))
                    .all().get(10, TimeUnit.SECONDS);
            log.info("created the events topic {} with {} partitions", topic, partitions);
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicExistsException) {
                log.info("events topic {} exists (another node created it)", topic);
                return true;
            }
            log.warn("cannot create the events topic {} yet: {}", topic, e.getCause().toString());
            return false;
        } catch (TimeoutException e) {
            log.warn("cannot reach Kafka to create the events topic {} yet", topic);
            return false;
        }
    }
}
