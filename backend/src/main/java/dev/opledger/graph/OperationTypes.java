package dev.opledger.graph;

import dev.opledger.graph.internal.ArgumentsSchema;
import dev.opledger.graph.internal.InvalidOperationTypeException;
import dev.opledger.operation.Command;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.springframework.stereotype.Component;

/**
 * The operation types this node accepts and runs, each {@link OperationType} bean by its name,
 * with its arguments schema compiled once at startup: a schema that is missing, not JSON, or not
 * a valid JSON Schema 2020-12, or two types with one name, stop the node from starting
 * ({@link InvalidOperationTypeException}). The API checks every command here before attestation
 * and the claim, so nothing is stored for a command no type accepts.
 */
@Component
public class OperationTypes {

    private record Registered(OperationType type, ArgumentsSchema schema) {
    }

    private final Map<String, Registered> types;

    public OperationTypes(List<OperationType> types) {
        var byName = new TreeMap<String, Registered>();
        for (OperationType type : types) {
            Registered earlier = byName.get(type.name());
            if (earlier != null) {
                throw new InvalidOperationTypeException("two operation types are named \"" + type.name() + "\": "
                        + earlier.type().getClass().getName() + " and " + type.getClass().getName());
            }
            ClassLoader loader = type.getClass().getClassLoader();
            byName.put(type.name(), new Registered(type, ArgumentsSchema.load(type.name(), type.argumentsSchema(),
                    loader == null ? ClassLoader.getSystemClassLoader() : loader)));
        }
        this.types = Map.copyOf(byName);
    }

    /** Checks the command's type and its arguments against that type's schema. */
    public CommandCheck check(Command command) {
        Registered registered = types.get(command.type());
        if (registered == null) {
            return new CommandCheck.UnknownType(command.type(), names());
        }
        List<CommandCheck.Violation> violations = registered.schema().violations(command);
        return violations.isEmpty()
                ? new CommandCheck.Valid()
                : new CommandCheck.InvalidArguments(command.type(), violations);
    }

    /** The type a command or an operation names, if this node has it. */
    public Optional<OperationType> find(String name) {
        return Optional.ofNullable(types.get(name)).map(Registered::type);
    }

    /** Every type's name, sorted. */
    public List<String> names() {
        return types.keySet().stream().sorted().toList();
    }
}
