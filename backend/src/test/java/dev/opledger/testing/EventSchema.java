package dev.opledger.testing;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The published contract, {@code events/operation-event.schema.json}, for tests to check events against. */
public final class EventSchema {

    public static final String LOCATION = "events/operation-event.schema.json";
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private EventSchema() {
    }

    public static JsonNode node() {
        try (InputStream in = EventSchema.class.getClassLoader().getResourceAsStream(LOCATION)) {
            if (in == null) {
                throw new IllegalStateException(LOCATION + " is not on the class path");
            }
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The schema's own errors against the 2020-12 meta-schema. */
    public static List<Error> metaErrors() {
        return REGISTRY.getSchema(SchemaLocation.of(SpecificationVersion.DRAFT_2020_12.getDialectId())).validate(node());
    }

    public static List<Error> errors(JsonNode event) {
        Schema schema = REGISTRY.getSchema(node());
        return schema.validate(event);
    }
}
