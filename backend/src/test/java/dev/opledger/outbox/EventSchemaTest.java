package dev.opledger.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.testing.EventSchema;
import java.util.Arrays;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** The event schema is valid JSON Schema 2020-12, lists every type the code writes, and refuses what breaks the contract. */
class EventSchemaTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static ObjectNode started() {
        return (ObjectNode) JSON.readTree("""
                {"eventId": "%s", "operationId": "%s", "subjectId": "alice", "type": "AgentToolStarted",
                 "sequence": 3, "status": "STARTED", "tool": "reserve_inventory", "stepKey": "reserve",
                 "occurredAt": "2026-12-01T10:00:00.123456Z", "server": "reference", "attempt": 1}
                """.formatted(UUID.randomUUID(), UUID.randomUUID()));
    }

    @Test
    void isAValidSchemaThatListsEveryEventType() {
        assertThat(EventSchema.metaErrors()).isEmpty();
        JsonNode types = EventSchema.node().get("properties").get("type").get("enum");
        assertThat(types.valueStream().map(JsonNode::asString).toList())
                .containsExactlyInAnyOrderElementsOf(Arrays.stream(EventType.values()).map(Enum::name).toList());
    }

    @Test
    void acceptsAToolEventAndRefusesOneThatBreaksTheContract() {
        assertThat(EventSchema.errors(started())).isEmpty();
        assertThat(EventSchema.errors(started().put("status", "SUCCEEDED"))).isNotEmpty();
        assertThat(EventSchema.errors(started().putNull("tool"))).isNotEmpty();
        assertThat(EventSchema.errors(started().put("sequence", 0))).isNotEmpty();
        assertThat(EventSchema.errors(started().put("type", "SomethingHappened"))).isNotEmpty();
        assertThat(EventSchema.errors(started().put("occurredAt", "yesterday"))).isNotEmpty();
        assertThat(EventSchema.errors(started().put("payloadHash", "00"))).isNotEmpty();
    }

    @Test
    void aResolvedReviewNamesItsStepAndTheResolutionButNoCallAttempt() {
        ObjectNode resolved = started().put("type", "ReviewResolved").put("status", "ACCEPTED")
                .put("tool", "send_message").put("stepKey", "receipt").put("resolution", "NOT_LANDED");
        resolved.remove("server");
        resolved.remove("attempt");
        assertThat(EventSchema.errors(resolved)).isEmpty();
        assertThat(EventSchema.errors(resolved.deepCopy().put("resolution", "MAYBE"))).isNotEmpty();
        assertThat(EventSchema.errors(resolved.deepCopy().put("status", "NEEDS_REVIEW"))).isNotEmpty();
        assertThat(EventSchema.errors(resolved.deepCopy().putNull("stepKey"))).isNotEmpty();
        assertThat(EventSchema.errors(resolved.deepCopy().put("attempt", 1))).isNotEmpty();
        ObjectNode withoutResolution = resolved.deepCopy();
        withoutResolution.remove("resolution");
        assertThat(EventSchema.errors(withoutResolution)).isNotEmpty();
        assertThat(EventSchema.errors(started().put("resolution", "LANDED"))).as("only on ReviewResolved").isNotEmpty();
    }

    @Test
    void aReplayStartNamesItsCheckpointAndIsAccepted() {
        ObjectNode replay = started().put("type", "ReplayStarted").put("status", "ACCEPTED")
                .put("fromCheckpoint", "6f1d3c1e-1b9f-4a53-9a34-0c4c7b0c2d11")
                .put("reason", "replay from checkpoint 6f1d3c1e-1b9f-4a53-9a34-0c4c7b0c2d11 started by admin");
        replay.putNull("tool");
        replay.putNull("stepKey");
        replay.remove("server");
        replay.remove("attempt");
        assertThat(EventSchema.errors(replay)).isEmpty();
        assertThat(EventSchema.errors(replay.deepCopy().put("status", "RUNNING"))).isNotEmpty();
        ObjectNode withoutCheckpoint = replay.deepCopy();
        withoutCheckpoint.remove("fromCheckpoint");
        assertThat(EventSchema.errors(withoutCheckpoint)).isNotEmpty();
        assertThat(EventSchema.errors(started().put("fromCheckpoint", "6f1d3c1e-1b9f-4a53-9a34-0c4c7b0c2d11")))
                .as("only on ReplayStarted").isNotEmpty();
    }

    @Test
    void refusesToolFieldsOnAnOperationEvent() {
        ObjectNode succeeded = started().put("type", "OperationSucceeded").put("status", "SUCCEEDED");
        succeeded.putNull("tool");
        succeeded.putNull("stepKey");
        succeeded.remove("server");
        succeeded.remove("attempt");
        assertThat(EventSchema.errors(succeeded)).isEmpty();
        assertThat(EventSchema.errors(succeeded.deepCopy().put("attempt", 1))).isNotEmpty();
        assertThat(EventSchema.errors(succeeded.deepCopy().put("tool", "reserve_inventory"))).isNotEmpty();
    }

    private static ObjectNode operationEvent(String type, String status) {
        ObjectNode event = started().put("type", type).put("status", status);
        event.putNull("tool");
        event.putNull("stepKey");
        event.remove("server");
        event.remove("attempt");
        return event;
    }

    @Test
    void aCancelsEventsCarryTheirOwnFieldsOnly() {
        ObjectNode requested = operationEvent("CancelRequested", "RUNNING").put("channel", "MCP");
        assertThat(EventSchema.errors(requested)).isEmpty();
        assertThat(EventSchema.errors(requested.deepCopy().put("channel", "FAX"))).isNotEmpty();
        assertThat(EventSchema.errors(operationEvent("CancelRequested", "RUNNING"))).as("no channel").isNotEmpty();
        assertThat(EventSchema.errors(requested.deepCopy().put("status", "CANCELLED"))).isNotEmpty();

        ObjectNode acknowledged = operationEvent("CancelAcknowledged", "ACCEPTED").put("acknowledgedBy", "ledger");
        assertThat(EventSchema.errors(acknowledged)).isEmpty();
        assertThat(EventSchema.errors(acknowledged.deepCopy().put("channel", "REST"))).isNotEmpty();
        assertThat(EventSchema.errors(operationEvent("OperationCancelled", "CANCELLED").put("acknowledgedBy", "n")))
                .isNotEmpty();

        ObjectNode committed = operationEvent("CancelEffectCommitted", "RUNNING").put("tool", "capture_payment")
                .put("stepKey", "capture");
        assertThat(EventSchema.errors(committed)).isEmpty();
        assertThat(EventSchema.errors(committed.deepCopy().putNull("tool"))).as("names the effect").isNotEmpty();
        assertThat(EventSchema.errors(committed.deepCopy().put("attempt", 1))).isNotEmpty();
    }
}
