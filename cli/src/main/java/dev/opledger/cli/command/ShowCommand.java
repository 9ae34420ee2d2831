package dev.opledger.cli.command;

import dev.opledger.cli.http.Reply;
import dev.opledger.operation.OperationId;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "show", description = {"Reads an operation from the device's node (GET /v1/operations/{id});",
        "with --wait, once it has ended or needs a person (or after the wait)."})
class ShowCommand implements Callable<Integer> {

    private final CliContext context;

    @Spec
    CommandSpec spec;

    @Mixin
    DeviceOptions device = new DeviceOptions();

    @Mixin
    WaitOption wait = new WaitOption();

    @Parameters(paramLabel = "OPERATION_ID")
    String operationId = "";

    ShowCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        var session = DeviceSession.open(context, device);
        OperationId id = OperationId.parse(operationId);
        try (var node = session.client()) {
            Reply reply = node.operation(session.token(), id, wait.duration());
            ReplyPrinter.print(spec.commandLine().getOut(), reply);
            return reply.successful() ? 0 : 1;
        }
    }
}
