package dev.opledger.cli.command;

import dev.opledger.cli.store.StoredOperation;
import dev.opledger.operation.Command;
import dev.opledger.operation.OperationId;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

@picocli.CommandLine.Command(name = "submit", description = {
    "Submits an operation as the app does, keeping its operationId and body before the first attempt.",
    "Makes one attempt (a fresh challenge and assertion); 'retry' makes the next ones."})
class SubmitCommand implements Callable<Integer> {

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private final CliContext context;

    @Spec
    CommandSpec spec;

    @Mixin
    DeviceOptions device = new DeviceOptions();

    @Mixin
    WaitOption wait = new WaitOption();

    /** Arguments the node's {@code checkout} schema accepts: what {@code submit} sends when told nothing else. */
    static final String CHECKOUT_ARGUMENTS =
            "{\"sku\":\"SKU-ESPRESSO\",\"quantity\":1,\"amount\":49.90,\"currency\":\"EUR\",\"recipient\":\"ann@example.com\"}";

    @Option(names = "--type", defaultValue = "checkout", paramLabel = "TYPE",
            description = "the operation type (default: ${DEFAULT-VALUE})")
    String type = "checkout";

    @Option(names = "--arguments", defaultValue = CHECKOUT_ARGUMENTS, paramLabel = "JSON",
            description = {"the arguments, a JSON object sent as written; the node checks them against the type's "
                    + "JSON Schema", "(default: a checkout, ${DEFAULT-VALUE})"})
    String arguments = CHECKOUT_ARGUMENTS;

    @Option(names = "--operation-id", paramLabel = "UUID", description = "default: a new random UUID")
    @Nullable String operationId;

    SubmitCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        var session = DeviceSession.open(context, device);
        byte[] body = body();
        Command.parse(body);
        OperationId id = operationId != null ? OperationId.parse(operationId) : OperationId.random();
        var operation = session.store().remember(device.name,
                new StoredOperation(id.toString(), body, context.clock().instant()));
        var out = spec.commandLine().getOut();
        out.println("operationId: " + id);
        return OperationAttempt.send(session, operation, context.clock(), wait.duration(), out);
    }

    /** {@code {"type":<type>,"arguments":<arguments as written>}}. */
    private byte[] body() {
        try {
            if (!JSON.readTree(arguments).isObject()) {
                throw new UsageException("--arguments must be a JSON object, not " + arguments);
            }
        } catch (JacksonException e) {
            throw new UsageException("--arguments is not JSON: " + e.getOriginalMessage());
        }
        String json = "{\"type\":" + JSON.writeValueAsString(type) + ",\"arguments\":" + arguments.strip() + "}";
        return json.getBytes(StandardCharsets.UTF_8);
    }
}
