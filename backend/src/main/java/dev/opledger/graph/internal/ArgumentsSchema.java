package dev.opledger.graph.internal;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaException;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.PathType;
import dev.opledger.graph.CommandCheck.Violation;
import dev.opledger.operation.Command;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One operation type's arguments schema (JSON Schema 2020-12), checked against the 2020-12
 * meta-schema and compiled when loaded, so a node with an unusable schema does not start.
 *
 * <p>Numbers are read as {@code BigDecimal}, so {@code multipleOf} is decided exactly (0.07 is a
 * multiple of 0.01, 1.001 is not) rather than in binary floating point, and an integral value is
 * read as an integer however it is written ({@code 1e+30}, {@code 2.0}), as JSON Schema's data model
 * has it. Messages are in English whatever the JVM's locale: they are part of the API's problem details.
 */
public final class ArgumentsSchema {

    /** How many violations a check reports at most: enough to fix a request, bounded for the response. */
    static final int MAX_VIOLATIONS = 20;

    private static final String DIALECT = SpecificationVersion.DRAFT_2020_12.getDialectId();
    private static final Set<String> MEMBER_KEYWORDS = Set.of("required", "dependentRequired", "additionalProperties");

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();
    /**
     * For the arguments: the schema library compares an integer-typed bound as a {@code long} unless
     * the value is a {@code BigInteger} node, and a huge integral decimal ({@code 1e+30}, canonical
     * JSON's form of 10^30) does not fit a {@code long}. Read as a {@code BigInteger} it is
     * compared exactly; canonical numbers are doubles, so it has at most 309 digits.
     */
    private static final JsonMapper ARGUMENTS_JSON = JSON.rebuild()
            .nodeFactory(new IntegralAsIntegerNodeFactory())
            .build();
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
            registry -> registry.schemaRegistryConfig(SchemaRegistryConfig.builder()
                    .pathType(PathType.JSON_POINTER)
                    .locale(Locale.ENGLISH)
                    .build()));

    private final Schema schema;

    private ArgumentsSchema(Schema schema) {
        this.schema = schema;
    }

    /**
     * @param location classpath location of the schema
     * @throws InvalidOperationTypeException when the schema is missing, not JSON, not 2020-12 or not valid
     */
    public static ArgumentsSchema load(String typeName, String location, ClassLoader classLoader) {
        String what = "operation type \"" + typeName + "\": arguments schema " + location;
        JsonNode node = read(what, location, classLoader);
        JsonNode dialect = node.get("$schema");
        if (dialect != null && !DIALECT.equals(dialect.asString())) {
            throw new InvalidOperationTypeException(what + " declares $schema " + dialect + "; only JSON Schema 2020-12 ("
                    + DIALECT + ") is supported");
        }
        List<Error> metaErrors = REGISTRY.getSchema(SchemaLocation.of(DIALECT)).validate(node);
        if (!metaErrors.isEmpty()) {
            throw new InvalidOperationTypeException(what + " is not a valid JSON Schema 2020-12: "
                    + metaErrors.stream().map(Error::toString).collect(Collectors.joining("; ")));
        }
        try {
            Schema schema = REGISTRY.getSchema(node);
            schema.initializeValidators();
            return new ArgumentsSchema(schema);
        } catch (SchemaException e) {
            throw new InvalidOperationTypeException(what + " does not compile: " + e.getMessage(), e);
        }
    }

    /** The ways the command's {@code arguments} fail this schema (none when they match), pointers into the command. */
    public List<Violation> violations(Command command) {
        JsonNode arguments = ARGUMENTS_JSON.readTree(command.canonicalJson()).get("arguments");
        return schema.validate(arguments).stream()
                .limit(MAX_VIOLATIONS)
                .map(ArgumentsSchema::violation)
                .toList();
    }

    private static Violation violation(Error error) {
        String pointer = "/arguments" + error.getInstanceLocation().toString();
        if (MEMBER_KEYWORDS.contains(error.getKeyword()) && error.getProperty() != null) {
            pointer += "/" + error.getProperty().replace("~", "~0").replace("/", "~1");
        }
        return new Violation(pointer, error.getMessage());
    }

    private static JsonNode read(String what, String location, ClassLoader classLoader) {
        try (InputStream in = classLoader.getResourceAsStream(location)) {
            if (in == null) {
                throw new InvalidOperationTypeException(what + " is not on the classpath");
            }
            JsonNode node = JSON.readTree(in);
            if (!node.isObject()) {
                throw new InvalidOperationTypeException(what + " is not a JSON object");
            }
            return node;
        } catch (JacksonException e) {
            throw new InvalidOperationTypeException(what + " is not JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new InvalidOperationTypeException(what + " cannot be read: " + e.getMessage(), e);
        }
    }
}
