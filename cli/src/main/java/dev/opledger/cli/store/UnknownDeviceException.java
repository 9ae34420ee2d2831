package dev.opledger.cli.store;

import java.nio.file.Path;

/** No device of that name is stored. */
public class UnknownDeviceException extends RuntimeException {

    public UnknownDeviceException(String name, Path directory) {
        super("no device named " + name + " in " + directory + " (create one with: device create " + name + ")");
    }
}
