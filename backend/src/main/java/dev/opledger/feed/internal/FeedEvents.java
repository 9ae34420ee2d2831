package dev.opledger.feed.internal;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads a record's value as an event: JSON that the published schema
 * ({@code events/operation-event.schema.json}) accepts. Anything else is refused with the reason.
 *
 * <p>Every condition of the schema ({@code allOf} of {@code if}/{@code then}/{@code else}) asks
 * only which {@code type} the event is, so for each type of the schema's enum the schema is also
 * kept with its conditions resolved for that type: the same constraints without the twenty
 * {@code if}s, each of which the whole schema evaluates, and fails (building an error with its
 * message and the node written out) for all but the one or two that apply. An event is checked
 * against its type's schema; one of no known type, and one that its type's schema refuses (for the
 * reason as the whole schema gives it), against the whole schema. (Issue 13: the whole schema was
 * about 40 % of the feed thread's CPU, docs/benchmarks.md.) If a condition of the schema ever
 * asks anything else, nothing is resolved and every event is checked against the whole schema.
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

    private static final Set<String> CONDITION_FIELDS = Set.of("if", "then", "else");

    private final Schema schema;
    private final Map<String, Schema> byType;

    FeedEvents() {
        try (InputStream in = FeedEvents.class.getClassLoader().getResourceAsStream(SCHEMA)) {
            if (in == null) {
                throw new IllegalStateException(SCHEMA + " is not on the class path");
            }
            SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
            JsonNode whole = JSON.readTree(in);
            schema = registry.getSchema(whole);
            byType = resolvedByType(registry, whole);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The event types whose conditions were resolved (all of the schema's, or none). */
    Set<String> resolvedTypes() {
        return byType.keySet();
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
        Schema own = schemaOf(event);
        List<Error> errors = own.validate(event);
        if (!errors.isEmpty() && own != schema) {
            errors = schema.validate(event); // the whole schema decides, and gives the reason
        }
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

    private Schema schemaOf(JsonNode event) {
        JsonNode type = event.isObject() ? event.get("type") : null;
        Schema resolved = type != null && type.isString() ? byType.get(type.asString()) : null;
        return resolved != null ? resolved : schema;
    }

    /**
     * For each type of the schema's {@code type} enum, the schema without its {@code $id}, each
     * condition replaced by the branch it takes for that type (none when that branch is absent).
     * Empty when a condition is anything but {@code {"if": {"properties": {"type": …}}, "then": …,
     * "else": …}}: then the answer could depend on more than the type.
     */
    static Map<String, Schema> resolvedByType(SchemaRegistry registry, JsonNode whole) {
        JsonNode types = whole.path("properties").path("type").path("enum");
        JsonNode conditions = whole.path("allOf");
        if (!types.isArray() || !conditions.isArray()) {
            return Map.of();
        }
        for (JsonNode condition : conditions) {
            if (condition.has("if") && !asksTypeOnly(condition)) {
                return Map.of();
            }
        }
        Map<String, Schema> resolved = new HashMap<>();
        for (JsonNode type : types) {
            if (!type.isString()) {
                return Map.of();
            }
            ObjectNode instance = JSON.createObjectNode().put("type", type.asString());
            ObjectNode copy = (ObjectNode) whole.deepCopy();
            copy.remove("$id");
            ArrayNode branches = copy.putArray("allOf");
            for (JsonNode condition : conditions) {
                if (!condition.has("if")) {
                    branches.add(condition);
                    continue;
                }
                boolean holds = registry.getSchema(condition.get("if")).validate(instance).isEmpty();
                JsonNode branch = condition.get(holds ? "then" : "else");
                if (branch != null) {
                    branches.add(branch);
                }
            }
            if (branches.isEmpty()) {
                copy.remove("allOf");
            }
            resolved.put(type.asString(), registry.getSchema(copy));
        }
        return Map.copyOf(resolved);
    }

    private static boolean asksTypeOnly(JsonNode condition) {
        for (String field : condition.propertyNames()) {
            if (!CONDITION_FIELDS.contains(field)) {
                return false;
            }
        }
        JsonNode test = condition.get("if");
        JsonNode properties = test.path("properties");
        return test.isObject() && test.size() == 1 && properties.isObject() && properties.size() == 1
                && properties.has("type");
    }

    private static @Nullable String text(JsonNode node) {
        return node.isNull() ? null : node.asString();
    }
}
