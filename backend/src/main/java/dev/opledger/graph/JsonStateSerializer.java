package dev.opledger.graph;

import dev.opledger.graph.internal.StateJson;
import java.io.IOException;
import java.util.Map;
import org.bsc.langgraph4j.serializer.PlainTextStateSerializer;
import org.bsc.langgraph4j.state.AgentState;
import org.bsc.langgraph4j.state.AgentStateFactory;
import tools.jackson.core.JacksonException;

/**
 * Graph state as JSON with Jackson 3, in the same form {@link PostgresCheckpointSaver} stores.
 * langgraph4j clones the state through its graph's serializer before every node and every
 * checkpoint, so with this one a node sees exactly what a resume from PostgreSQL would give it:
 * records as maps, decimals as {@code BigDecimal} (see {@code StateJson}). langgraph4j's own
 * {@code JacksonStateSerializer} needs Jackson 2 ({@code com.fasterxml}), which Boot 4 no longer
 * brings; its default Java-serialization one stores opaque bytes tied to class versions.
 *
 * <p>A clone is that JSON round trip's result, built without writing the text where it can be
 * ({@link StateJson#copy}).
 */
public final class JsonStateSerializer<S extends AgentState> extends PlainTextStateSerializer<S> {

    public JsonStateSerializer(AgentStateFactory<S> stateFactory) {
        super(stateFactory);
    }

    @Override
    public String contentType() {
        return "application/json";
    }

    @Override
    public S cloneObject(S state) throws IOException {
        try {
            return stateOf(StateJson.copy(state.data()));
        } catch (JacksonException e) {
            throw notJsonWritable(e);
        }
    }

    @Override
    public String writeDataAsString(Map<String, Object> data) throws IOException {
        try {
            return StateJson.write(data);
        } catch (JacksonException e) {
            throw notJsonWritable(e);
        }
    }

    private static IOException notJsonWritable(JacksonException e) {
        return new IOException("graph state is not JSON-writable: " + e.getOriginalMessage(), e);
    }

    @Override
    public Map<String, Object> readDataFromString(String string) throws IOException {
        try {
            return StateJson.read(string);
        } catch (JacksonException e) {
            throw new IOException("graph state is not a JSON object: " + e.getOriginalMessage(), e);
        }
    }
}
