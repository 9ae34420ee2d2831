package dev.opledger.feed.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.opledger.testing.EventSchema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The feed checks an event against the schema resolved for its type (issue 13, its CPU): it must
 * accept exactly what the whole published schema accepts, and refuse with the whole schema's reason.
 */
class FeedEventsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final List<String> STATUSES = List.of("ACCEPTED", "RUNNING", "AWAITING_APPROVAL", "AWAITING_INPUT",
            "SUCCEEDED", "FAILED", "CANCELLED", "NEEDS_REVIEW", "STARTED");
    // each field some type needs or forbids, with a value the schema's property accepts
    private static final Map<String, Object> EXTRAS = Map.of("commandType", "checkout", "runCount", 2,
            "inputKeys", List.of("k"), "decision", "APPROVED", "resolution", "LANDED",
            "fromCheckpoint", UUID.randomUUID().toString(), "server", "reference", "attempt", 1, "channel", "REST",
            "acknowledgedBy", "node-a");

    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static final Schema WHOLE = REGISTRY.getSchema(EventSchema.node());
    private static final Map<String, Schema> RESOLVED = FeedEvents.resolvedByType(REGISTRY, EventSchema.node());

    private final FeedEvents events = new FeedEvents();

    @Test
    void everyTypeOfTheSchemaHasItsConditionsResolved() {
        Set<String> types = new HashSet<>();
        EventSchema.node().path("properties").path("type").path("enum").forEach(type -> types.add(type.asString()));
        assertThat(types).hasSizeGreaterThan(10);
        assertThat(events.resolvedTypes()).isEqualTo(types);
        assertThat(RESOLVED.keySet()).isEqualTo(types);
    }

    @Test
    void acceptsExactlyWhatTheWholeSchemaAccepts() {
        int accepted = 0;
        int refused = 0;
        List<String> disagreements = new ArrayList<>();
        for (String type : events.resolvedTypes()) {
            for (String status : STATUSES) {
                for (int sequence = 1; sequence <= 2; sequence++) {
                    for (boolean named : new boolean[] {false, true}) {
                        for (List<String> extras : extraSets()) {
                            ObjectNode event = event(type, status, sequence, named, extras);
                            boolean schemaAccepts = WHOLE.validate(event).isEmpty();
                            // the type's own schema decides alone for what it accepts, and must accept no less
                            boolean typeAccepts = RESOLVED.get(type).validate(event).isEmpty();
                            if (schemaAccepts != typeAccepts || schemaAccepts != accepts(event)) {
                                disagreements.add(event + (schemaAccepts ? " accepted" : " refused") + " by the schema");
                            }
                            if (schemaAccepts) {
                                accepted++;
                            } else {
                                refused++;
                            }
                        }
                    }
                }
            }
        }
        assertThat(disagreements).isEmpty();
        // every type has some accepted shape among these, and most shapes are refused
        assertThat(accepted).isGreaterThanOrEqualTo(events.resolvedTypes().size());
        assertThat(refused).isGreaterThan(accepted);
    }

    @Test
    void aRefusedEventOfAKnownTypeGetsTheWholeSchemasReason() {
        ObjectNode event = event("AgentToolStarted", "STARTED", 3, true, List.of("server"));
        String wholeReason = WHOLE.validate(event).getFirst().toString();

        assertThatThrownBy(() -> events.read(bytes(event))).isInstanceOf(FeedEvents.UnreadableEventException.class)
                .hasMessageStartingWith("the value is not an operation event").hasMessageContaining(wholeReason);
    }

    @Test
    void anEventOfNoKnownTypeIsCheckedAgainstTheWholeSchema() {
        ObjectNode event = event("OperationAccepted", "ACCEPTED", 1, false, List.of("commandType"));
        assertThat(accepts(event)).isTrue();
        event.put("type", "NoSuchEvent");

        assertThatThrownBy(() -> events.read(bytes(event))).isInstanceOf(FeedEvents.UnreadableEventException.class)
                .hasMessageContaining(WHOLE.validate(event).getFirst().toString());
        event.put("type", 7);
        assertThat(accepts(event)).isFalse();
        event.remove("type");
        assertThat(accepts(event)).isFalse();
    }

    private boolean accepts(JsonNode event) {
        try {
            events.read(bytes(event));
            return true;
        } catch (FeedEvents.UnreadableEventException e) {
            return false;
        }
    }

    /** No extra field, all of them, and each one alone. */
    private static List<List<String>> extraSets() {
        List<List<String>> sets = new ArrayList<>();
        sets.add(List.of());
        sets.add(List.copyOf(EXTRAS.keySet()));
        EXTRAS.keySet().forEach(field -> sets.add(List.of(field)));
        sets.add(List.of("server", "attempt"));
        return sets;
    }

    private static ObjectNode event(String type, String status, int sequence, boolean named, List<String> extras) {
        ObjectNode event = JSON.createObjectNode().put("eventId", UUID.randomUUID().toString())
                .put("operationId", UUID.randomUUID().toString()).put("subjectId", "ann").put("type", type)
                .put("sequence", sequence).put("status", status).put("occurredAt", "2026-12-04T03:00:00.123Z");
        if (named) {
            event.put("tool", "reserve_stock").put("stepKey", "reserve");
        } else {
            event.putNull("tool").putNull("stepKey");
        }
        extras.forEach(field -> event.set(field, JSON.valueToTree(EXTRAS.get(field))));
        return event;
    }

    private static byte[] bytes(JsonNode event) {
        return event.toString().getBytes(StandardCharsets.UTF_8);
    }
}
