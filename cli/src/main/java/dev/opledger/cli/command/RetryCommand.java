package dev.opledger.cli.command;

import dev.opledger.operation.OperationId;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "retry", description = {
    "Attempts a submitted operation again with the same operationId and body bytes.",
    "Each attempt has a new challenge and a new assertion (a higher counter)."})
class RetryCommand implements Callable<Integer> {

    private final CliContext context;

    @Spec
    CommandSpec spec;

    @Mixin
    DeviceOptions device = new DeviceOptions();

    @Mixin
    WaitOption wait = new WaitOption();

    @Parameters(paramLabel = "OPERATION_ID", description = "an operationId this device submitted")
    String operationId = "";

    RetryCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        var session = DeviceSession.open(context, device);
        String id = OperationId.parse(operationId).toString();
        var operation = session.device().operation(id).orElseThrow(() -> new UsageException(
                "device " + device.name + " never submitted operation " + id));
        var out = spec.commandLine().getOut();
        out.println("operationId: " + id);
        return OperationAttempt.send(session, operation, context.clock(), wait.duration(), out);
    }
}
