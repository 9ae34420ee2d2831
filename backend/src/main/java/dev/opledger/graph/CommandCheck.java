package dev.opledger.graph;

import java.util.List;

/** Whether a command names an operation type this node knows, with arguments its schema accepts. */
public sealed interface CommandCheck {

    record Valid() implements CommandCheck {
    }

    /** No operation type has the command's name; {@code knownTypes} are the names there are, sorted. */
    record UnknownType(String type, List<String> knownTypes) implements CommandCheck {

        public UnknownType {
            knownTypes = List.copyOf(knownTypes);
        }
    }

    /** The arguments do not match the type's schema; at least one violation, at most a bounded few. */
    record InvalidArguments(String type, List<Violation> violations) implements CommandCheck {

        public InvalidArguments {
            violations = List.copyOf(violations);
        }
    }

    /**
     * One way the arguments fail the schema.
     *
     * @param pointer JSON Pointer (RFC 6901) into the whole command, e.g. {@code /arguments/quantity}
     *     (for a missing or an unexpected member: that member's pointer)
     * @param message what is wrong, for people
     */
    record Violation(String pointer, String message) {
    }
}
