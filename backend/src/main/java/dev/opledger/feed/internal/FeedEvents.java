package dev.opledger.feed.internal;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a record's value as an event: JSON that the published schema
 * ({@code events/operation-event.schema.json}) accepts. Anything else is refused with the reason.
 */
final class FeedEvents {

    /** A value that is not an event, and why. */
    static final class UnreadableEventException extends RuntimeException {
        UnreadableEventException(String reason) {
            super(reason);
        }
    }

    private static final String SCHEMA = "events/operation-event.schema.json";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Schema schema;

    FeedEvents() {
        try (InputStream in = FeedEvents.class.getClassLoader().getResourceAsStream(SCHEMA)) {
            if (in == null) {
                throw new IllegalStateException(SCHEMA + " is not on the class path");
            }
            schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(JSON.readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    FeedEvent read(byte @Nullable [] value) {
        if (value == null) {
            throw new UnreadableEventException("the record has no value");
        }
        JsonNode event;
        try {
            event = JSON.readTree(value);
        } catch (JacksonException e) {
            throw new UnreadableEventException("the value is not JSON: " + e.getOriginalMessage());
        }
        List<Error> errors = schema.validate(event);
        if (!errors.isEmpty()) {
            throw new UnreadableEventException("the value is not an operation event: "
                    + errors.stream().limit(5).map(Error::toString).collect(Collectors.joining("; ")));
        }
        // the schema's patterns let some values through that are none (occurredAt in month 13, a
        // sequence past int): such a record is not an event either, and must not end the feed's thread
        try {
            return new FeedEvent(UUID.fromString(event.get("eventId").asString()),
                    UUID.fromString(event.get("operationId").asString()), event.get("subjectId").asString(),
                    event.get("sequence").asInt(), event.get("type").asString(), event.get("status").asString(),
                    text(event.get("tool")), text(event.get("stepKey")), Instant.parse(event.get("occurredAt").asString()));
        } catch (RuntimeException e) {
            throw new UnreadableEventException("the value is not an operation event: " + e.getMessage());
        }
    }

    private static @Nullable String text(JsonNode node) {
        return node.isNull() ? null : node.asString();
    }
}
