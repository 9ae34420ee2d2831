package dev.opledger.outbox.internal;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * An outbox row as a Kafka record in CloudEvents' Kafka binding, binary mode: the event's JSON
 * is the value, its attributes are {@code ce_*} headers, the key is the operationId (so one
 * operation's events stay in order on one partition). Contract: {@code docs/events.md}.
 */
final class CloudEventRecords {

    /** {@code ce_type} is this prefix and the event's type. */
    static final String TYPE_PREFIX = "dev.opledger.";

    private final JsonMapper json;
    private final String topic;
    private final String source;

    CloudEventRecords(JsonMapper json, String topic, URI source) {
        this.json = json;
        this.topic = topic;
        this.source = source.toString();
    }

    ProducerRecord<String, byte[]> of(OutboxEvent event) {
        ObjectNode value = json.createObjectNode();
        value.put("eventId", event.eventId().toString());
        value.put("operationId", event.operationId().toString());
        value.put("subjectId", event.subjectId());
        value.put("type", event.type());
        value.put("sequence", event.sequence());
        value.put("status", event.status());
        value.put("tool", event.tool());
        value.put("stepKey", event.stepKey());
        value.put("occurredAt", event.occurredAt().toString());
        value.setAll((ObjectNode) json.readTree(event.payload()));
        var headers = new RecordHeaders();
        header(headers, "ce_specversion", "1.0");
        header(headers, "ce_id", event.eventId().toString());
        header(headers, "ce_type", TYPE_PREFIX + event.type());
        header(headers, "ce_source", source);
        header(headers, "ce_subject", event.operationId().toString());
        header(headers, "ce_time", event.occurredAt().toString());
        header(headers, "content-type", "application/json");
        return new ProducerRecord<>(topic, null, event.operationId().toString(), json.writeValueAsBytes(value), headers);
    }

    private static void header(RecordHeaders headers, String name, String value) {
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
