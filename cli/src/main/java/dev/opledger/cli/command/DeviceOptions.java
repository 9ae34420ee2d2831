package dev.opledger.cli.command;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Which stored device acts, and with which bearer token. */
class DeviceOptions {

    @Option(names = "--device", required = true, paramLabel = "NAME", description = "a device made by 'device create'")
    String name = "";

    @Option(names = "--token", paramLabel = "T",
            description = "the bearer token (default: a local-profile token for the device's subject)")
    @Nullable String token;

    @Mixin
    StoreOption store = new StoreOption();
}
