package dev.opledger.cli.store;

import java.nio.file.Path;

/** A device of that name is already stored; its key is never overwritten. */
public class DeviceExistsException extends RuntimeException {

    public DeviceExistsException(String name, Path file) {
        super("a device named " + name + " already exists: " + file);
    }
}
