package dev.opledger.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.claim.LeasedOperation;
import dev.opledger.graph.internal.InvalidOperationTypeException;
import dev.opledger.operation.Command;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class OperationTypesTest {

    private static final String DIR = "operation-types-test/";

    record TestType(String name, String argumentsSchema) implements OperationType {
        @Override
        public ExecutionOutcome execute(LeasedOperation operation, LeaseGuard lease) {
            throw new UnsupportedOperationException("not run in these tests");
        }
    }

    private static Command command(String type, String arguments) {
        return Command.parse(("{\"type\":\"" + type + "\",\"arguments\":" + arguments + "}").getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void anUnknownTypeIsReportedWithTheKnownNamesSorted() {
        var types = new OperationTypes(List.of(new TestType("zeta", DIR + "no-dialect.schema.json"),
                new TestType("alpha", DIR + "no-dialect.schema.json")));

        assertThat(types.check(command("refund", "{}")))
                .isEqualTo(new CommandCheck.UnknownType("refund", List.of("alpha", "zeta")));
        assertThat(types.names()).containsExactly("alpha", "zeta");
        assertThat(types.find("zeta")).get().extracting(OperationType::name).isEqualTo("zeta");
        assertThat(types.find("refund")).isEmpty();
    }

    @Test
    void aSchemaWithoutDialectIsReadAs2020And12() {
        var types = new OperationTypes(List.of(new TestType("t", DIR + "no-dialect.schema.json")));

        assertThat(types.check(command("t", "{\"n\":1}"))).isInstanceOf(CommandCheck.Valid.class);
        assertThat(types.check(command("t", "{}"))).isEqualTo(new CommandCheck.InvalidArguments("t",
                List.of(new CommandCheck.Violation("/arguments/n", "required property 'n' not found"))));
    }

    @Test
    void pointersLeadIntoTheWholeCommandWithMemberNamesEscaped() {
        var types = new OperationTypes(List.of(new TestType("nested", DIR + "nested.schema.json")));

        var check = types.check(command("nested", "{\"items\":[{\"n\":1},{\"n\":\"two\"}],\"extra\":true}"));

        assertThat(check).isInstanceOfSatisfying(CommandCheck.InvalidArguments.class, invalid -> assertThat(
                invalid.violations()).extracting(CommandCheck.Violation::pointer).containsExactlyInAnyOrder(
                "/arguments/a~1b", "/arguments/extra", "/arguments/items/1/n"));
    }

    @Test
    void reportsABoundedNumberOfViolations() {
        var types = new OperationTypes(List.of(new TestType("nested", DIR + "nested.schema.json")));
        String letters = "\"" + "ab\",\"".repeat(50) + "c\"";

        var check = types.check(command("nested", "{\"a/b\":\"x\",\"items\":[],\"letters\":[" + letters + "]}"));

        assertThat(check).isInstanceOfSatisfying(CommandCheck.InvalidArguments.class,
                invalid -> assertThat(invalid.violations()).hasSize(20));
    }

    @Test
    void refusesTwoTypesWithOneName() {
        assertThatThrownBy(() -> new OperationTypes(List.of(new TestType("t", DIR + "no-dialect.schema.json"),
                new TestType("t", DIR + "nested.schema.json"))))
                .isInstanceOf(InvalidOperationTypeException.class)
                .hasMessageContaining("two operation types are named \"t\"");
    }

    @Test
    void refusesASchemaThatIsMissingNotJsonNot2020And12OrInvalid() {
        assertThatThrownBy(() -> new OperationTypes(List.of(new TestType("t", DIR + "absent.schema.json"))))
                .isInstanceOf(InvalidOperationTypeException.class)
                .hasMessage("operation type \"t\": arguments schema " + DIR + "absent.schema.json is not on the classpath");
        assertThatThrownBy(() -> new OperationTypes(List.of(new TestType("t", DIR + "not-json.schema.json"))))
                .isInstanceOf(InvalidOperationTypeException.class).hasMessageContaining("is not JSON");
        assertThatThrownBy(() -> new OperationTypes(List.of(new TestType("t", DIR + "draft-07.schema.json"))))
                .isInstanceOf(InvalidOperationTypeException.class).hasMessageContaining("only JSON Schema 2020-12");
        assertThatThrownBy(() -> new OperationTypes(List.of(new TestType("t", DIR + "invalid.schema.json"))))
                .isInstanceOf(InvalidOperationTypeException.class)
                .hasMessageContaining("is not a valid JSON Schema 2020-12")
                .hasMessageContaining("/properties/n/minimum");
    }
}
