package dev.opledger.cli.command;

import dev.opledger.cli.store.DeviceStore;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** {@code --devices-dir}: where devices are kept. */
class StoreOption {

    @Option(names = "--devices-dir", paramLabel = "DIR",
            description = "where devices are kept (default: $" + CliContext.DEVICES_VARIABLE + ", else ~/.opledger/devices)")
    @Nullable Path directory;

    DeviceStore store(CliContext context) {
        return new DeviceStore(directory != null ? directory : context.devicesDirectory());
    }
}
