package dev.opledger.note;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.claim.LeasedOperation;
import dev.opledger.graph.CommandCheck;
import dev.opledger.graph.ExecutionOutcome;
import dev.opledger.graph.LeaseGuard;
import dev.opledger.graph.OperationType;
import dev.opledger.graph.OperationTypes;
import dev.opledger.operation.Command;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** publish-note's arguments: the schema the API applies, what the run checks again, and the edit as edit_file applies it. */
class NoteArgumentsTest {

    private static final String VALID = """
            {"directory":"notes/2026","name":"release.md","text":"# Release 4.2\\n## Changes\\n","edit":{"oldText":"## Changes\\n","newText":"## Changes\\n- faster sign-in\\n"}}""";

    /** The type's name and schema, without the graph (which needs a node around it). */
    private static final OperationType NOTE = new OperationType() {
        @Override
        public String name() {
            return NoteOperation.NAME;
        }

        @Override
        public String argumentsSchema() {
            return NoteOperation.SCHEMA;
        }

        @Override
        public ExecutionOutcome execute(LeasedOperation operation, LeaseGuard lease) {
            throw new UnsupportedOperationException("only the schema is under test");
        }
    };

    private final OperationTypes types = new OperationTypes(List.of(NOTE));

    private CommandCheck check(String arguments) {
        return types.check(Command.parse(("{\"type\":\"publish-note\",\"arguments\":" + arguments + "}")
                .getBytes(StandardCharsets.UTF_8)));
    }

    private static String command(String arguments) {
        return "{\"type\":\"publish-note\",\"arguments\":" + arguments + "}";
    }

    @Test
    void theSchemaAcceptsANoteAndTheRunReadsIt() {
        assertThat(check(VALID)).isInstanceOf(CommandCheck.Valid.class);

        NoteArguments arguments = NoteArguments.fromCommand(command(VALID));

        assertThat(arguments.directory()).isEqualTo("notes/2026");
        assertThat(arguments.name()).isEqualTo("release.md");
        assertThat(new NoteState(arguments.asState()).edited()).isEqualTo("# Release 4.2\n## Changes\n- faster sign-in\n");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "\"directory\":\"notes/2026\"  | \"directory\":\"/etc\"       | /arguments/directory",
        "\"directory\":\"notes/2026\"  | \"directory\":\"notes/../..\" | /arguments/directory",
        "\"directory\":\"notes/2026\"  | \"directory\":\"notes/\"      | /arguments/directory",
        "\"name\":\"release.md\"       | \"name\":\".hidden\"          | /arguments/name",
        "\"name\":\"release.md\"       | \"name\":\"a/b.md\"           | /arguments/name",
        "\"oldText\":\"## Changes\\n\" | \"oldText\":\"\"              | /arguments/edit/oldText",
        "\"newText\"                   | \"other\"                     | /arguments/edit/newText"})
    void theSchemaRefusesPathsOutOfTheRootAndIncompleteEdits(String valid, String invalid, String pointer) {
        assertThat(check(VALID.replace(valid.strip(), invalid.strip())))
                .isInstanceOfSatisfying(CommandCheck.InvalidArguments.class, refused -> assertThat(refused.violations())
                        .extracting(CommandCheck.Violation::pointer).contains(pointer));
    }

    @Test
    void anEditWhoseOldTextIsNotInTheTextIsRefusedBeforeAnythingIsWritten() {
        String missing = VALID.replace("\"oldText\":\"## Changes\\n\"", "\"oldText\":\"## Fixes\"");
        assertThat(check(missing)).isInstanceOf(CommandCheck.Valid.class); // a schema cannot say it

        assertThatThrownBy(() -> NoteArguments.fromCommand(command(missing)))
                .hasMessage("'edit.oldText' does not occur in 'text'");
    }

    @Test
    void anEditThatChangesNothingIsRefused() {
        String same = VALID.replace("\"newText\":\"## Changes\\n- faster sign-in\\n\"", "\"newText\":\"## Changes\\r\\n\"");

        assertThatThrownBy(() -> NoteArguments.fromCommand(command(same)))
                .hasMessage("the edit changes nothing: 'edit.newText' is 'edit.oldText'");
    }

    /** As server-filesystem's edit_file: \r\n read as \n, the first exact occurrence replaced, the rest kept. */
    @Test
    void theEditedTextIsWhatEditFileWrites() {
        assertThat(NoteText.edited("a\r\nTODO\r\nTODO\r\n", "TODO\r\n", "done\n")).isEqualTo("a\ndone\nTODO\n");
        assertThat(NoteText.edited("price: $1", "$1", "$2")).isEqualTo("price: $2"); // no regex
    }
}
