package dev.opledger.cli.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Devices as JSON files, {@code <directory>/<name>.json}, readable by their owner only. Every
 * change is made under a lock (a file lock between processes, a lock per file within one) and
 * written to a new file that is synced and then moved over the old one, so a crash leaves the
 * old or the new content, never a mix, and a counter handed out is on disk first.
 */
public final class DeviceStore {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final Map<Path, ReentrantLock> LOCKS = new ConcurrentHashMap<>();
    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private final Path directory;

    public DeviceStore(Path directory) {
        this.directory = directory.toAbsolutePath();
    }

    public Path directory() {
        return directory;
    }

    /** Stores a new device; never replaces one. */
    public void create(StoredDevice device) {
        Path file = file(device.name());
        locked(device.name(), () -> {
            if (Files.exists(file)) {
                throw new DeviceExistsException(device.name(), file);
            }
            write(file, device);
            return device;
        });
    }

    public boolean exists(String name) {
        return Files.exists(file(name));
    }

    public StoredDevice load(String name) {
        Path file = file(name);
        try {
            return JSON.readValue(Files.readAllBytes(file), StoredDevice.class);
        } catch (NoSuchFileException e) {
            throw new UnknownDeviceException(name, directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        } catch (JacksonException e) {
            throw new IllegalStateException(file + " is not a device file: " + e.getOriginalMessage(), e);
        }
    }

    /** Reads, changes and writes a device under its lock; returns what was written. */
    public StoredDevice update(String name, UnaryOperator<StoredDevice> change) {
        return locked(name, () -> {
            StoredDevice changed = change.apply(load(name));
            write(file(name), changed);
            return changed;
        });
    }

    /**
     * Hands out the device's next counter, on disk before this returns: an assertion made with
     * it may be lost on its way, but the counter is never used twice.
     */
    public long nextCounter(String name) {
        return update(name, device -> device.withCounter(device.counter() + 1)).counter();
    }

    /**
     * Keeps an operation before its first attempt. The same operationId with the same body is
     * kept once; with another body it is refused.
     */
    public StoredOperation remember(String name, StoredOperation operation) {
        StoredDevice device = update(name, stored -> stored.operation(operation.operationId())
                .map(known -> {
                    if (!Arrays.equals(known.body(), operation.body())) {
                        throw new OperationConflictException(operation.operationId());
                    }
                    return stored;
                })
                .orElseGet(() -> stored.withOperation(operation)));
        return device.operation(operation.operationId()).orElseThrow();
    }

    private Path file(String name) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("a device name is 1 to 64 letters, digits, '.', '_' or '-', "
                    + "starting with a letter or digit, not " + name);
        }
        return directory.resolve(name + ".json");
    }

    private interface Change {
        StoredDevice run() throws IOException;
    }

    private StoredDevice locked(String name, Change change) {
        Path lockFile = file(name).resolveSibling(name + ".lock");
        ReentrantLock local = LOCKS.computeIfAbsent(lockFile, path -> new ReentrantLock());
        local.lock();
        try {
            PrivateFiles.createDirectory(directory);
            try (FileChannel channel = PrivateFiles.openForLock(lockFile); FileLock ignored = channel.lock()) {
                return change.run();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write device " + name + " in " + directory, e);
        } finally {
            local.unlock();
        }
    }

    private void write(Path file, StoredDevice device) throws IOException {
        PrivateFiles.replace(file, JSON.writeValueAsBytes(device));
    }
}
