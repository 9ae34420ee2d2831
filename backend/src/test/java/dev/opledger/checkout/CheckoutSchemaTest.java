package dev.opledger.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.claim.LeasedOperation;
import dev.opledger.graph.CommandCheck;
import dev.opledger.graph.ExecutionOutcome;
import dev.opledger.graph.LeaseGuard;
import dev.opledger.graph.OperationType;
import dev.opledger.graph.OperationTypes;
import dev.opledger.operation.Command;
import dev.opledger.testing.Checkout;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The checkout type's argument schema, as the API applies it. */
class CheckoutSchemaTest {

    /** Checkout's name and schema, without the graph (which needs a node around it). */
    private static final OperationType CHECKOUT = new OperationType() {
        @Override
        public String name() {
            return CheckoutOperation.NAME;
        }

        @Override
        public String argumentsSchema() {
            return CheckoutOperation.SCHEMA;
        }

        @Override
        public ExecutionOutcome execute(LeasedOperation operation, LeaseGuard lease) {
            throw new UnsupportedOperationException("only the schema is under test");
        }
    };

    private final OperationTypes types = new OperationTypes(List.of(CHECKOUT));

    private CommandCheck check(String arguments) {
        return types.check(Command.parse(("{\"type\":\"checkout\",\"arguments\":" + arguments + "}")
                .getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void acceptsTheMinimalAndTheFullCommand() {
        assertThat(check(Checkout.arguments())).isInstanceOf(CommandCheck.Valid.class);
        assertThat(check(Checkout.arguments().replace("}", ",\"loyaltyAccount\":\"ann\",\"shippingAddress\":\"1 Main St\"}")))
                .isInstanceOf(CommandCheck.Valid.class);
    }

    /** multipleOf 0.01 decided in decimal: in binary floating point 0.07 / 0.01 is 7.000000000000001. */
    @ParameterizedTest
    @ValueSource(strings = {"49.99", "0.07", "19.99", "1000000", "0.01", "4.35", "1.15", "8.2", "999999.99", "49.90"})
    void acceptsAmountsWithAtMostTwoDecimals(String amount) {
        assertThat(check(Checkout.arguments(1, amount))).isInstanceOf(CommandCheck.Valid.class);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "1.001      | /arguments/amount",
        "49.999     | /arguments/amount",
        "1e-7       | /arguments/amount",
        "0          | /arguments/amount",
        "-5         | /arguments/amount",
        "1000000.01 | /arguments/amount",
        "\"49.90\"  | /arguments/amount",
        "1e30       | /arguments/amount",
        "1e300      | /arguments/amount",
        "-1e30      | /arguments/amount"})
    void refusesOtherAmounts(String amount, String pointer) {
        assertThat(check(Checkout.arguments(1, amount.strip())))
                .isInstanceOfSatisfying(CommandCheck.InvalidArguments.class, invalid -> assertThat(invalid.violations())
                        .extracting(CommandCheck.Violation::pointer).containsExactly(pointer));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "\"quantity\":1      | \"quantity\":0          | /arguments/quantity",
        "\"quantity\":1      | \"quantity\":101        | /arguments/quantity",
        "\"quantity\":1      | \"quantity\":1.5        | /arguments/quantity",
        "\"quantity\":1      | \"quantity\":\"1\"      | /arguments/quantity",
        "\"sku\":\"SKU-ESPRESSO\" | \"sku\":\"espresso\" | /arguments/sku",
        "\"currency\":\"EUR\" | \"currency\":\"euro\"  | /arguments/currency",
        "\"recipient\":\"ann@example.com\" | \"recipient\":\"\" | /arguments/recipient",
        ",\"recipient\":\"ann@example.com\" | ''       | /arguments/recipient",
        "\"currency\":\"EUR\" | \"currency\":\"EUR\",\"coupon\":\"FREE\" | /arguments/coupon"})
    void refusesArgumentsOutsideTheSchemaAndPointsAtThem(String valid, String replacement, String pointer) {
        String arguments = Checkout.arguments().replace(valid.strip(), replacement.strip());
        assertThat(arguments).isNotEqualTo(Checkout.arguments());

        assertThat(check(arguments)).isInstanceOfSatisfying(CommandCheck.InvalidArguments.class,
                invalid -> assertThat(invalid.violations()).extracting(CommandCheck.Violation::pointer)
                        .containsExactly(pointer));
    }

    // Issue 8: an integer beyond a long (canonical form 1e+30) threw from the schema library: a 500.
    @ParameterizedTest
    @ValueSource(strings = {"1e30", "1e300", "-1e30", "1.7976931348623157e308", "1e21"})
    void refusesAHugeQuantityAsOutOfRange(String quantity) {
        String arguments = Checkout.arguments().replace("\"quantity\":1", "\"quantity\":" + quantity);

        assertThat(check(arguments)).isInstanceOfSatisfying(CommandCheck.InvalidArguments.class,
                invalid -> assertThat(invalid.violations()).extracting(CommandCheck.Violation::pointer)
                        .containsExactly("/arguments/quantity"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1e2", "100.0", "1.0", "5e0"})
    void acceptsAnIntegralQuantityHoweverWritten(String quantity) {
        assertThat(check(Checkout.arguments().replace("\"quantity\":1", "\"quantity\":" + quantity)))
                .isInstanceOf(CommandCheck.Valid.class);
    }
}
