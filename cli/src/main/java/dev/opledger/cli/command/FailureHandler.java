package dev.opledger.cli.command;

import dev.opledger.cli.http.UnexpectedReplyException;
import dev.opledger.cli.store.DeviceExistsException;
import dev.opledger.cli.store.OperationConflictException;
import dev.opledger.cli.store.UnknownDeviceException;
import dev.opledger.operation.MalformedCommandException;
import picocli.CommandLine;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * One line on standard error instead of a stack trace: exit code 2 for what the user asked
 * wrongly, 1 for everything else (an unreachable node, an unexpected reply, a broken file).
 */
class FailureHandler implements IExecutionExceptionHandler {

    @Override
    public int handleExecutionException(Exception failure, CommandLine commandLine, ParseResult parseResult) {
        var err = commandLine.getErr();
        err.println("error: " + failure.getMessage());
        if (failure instanceof UnexpectedReplyException unexpected) {
            ReplyPrinter.print(err, unexpected.reply());
        }
        err.flush();
        return usage(failure) ? ExitCode.USAGE : ExitCode.SOFTWARE;
    }

    private static boolean usage(Exception failure) {
        return failure instanceof UsageException || failure instanceof UnknownDeviceException
                || failure instanceof DeviceExistsException || failure instanceof OperationConflictException
                || failure instanceof MalformedCommandException || failure instanceof IllegalArgumentException;
    }
}
