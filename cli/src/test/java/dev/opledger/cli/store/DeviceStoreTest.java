package dev.opledger.cli.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.attest.AttestEnvironment;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeviceStoreTest {

    @TempDir
    Path directory;

    static StoredDevice device(String name) {
        return new StoredDevice(name, URI.create("http://localhost:8080"), "alice", "OPLEDGERDV.dev.opledger.simulator",
                AttestEnvironment.DEVELOPMENT, false, new byte[32], new byte[65], new byte[] {1, 2, 3}, 0,
                Instant.now().truncatedTo(ChronoUnit.MILLIS), List.of());
    }

    @Test
    void keepsADeviceInAJsonFileOnlyItsOwnerCanRead() throws IOException {
        var store = new DeviceStore(directory.resolve("devices"));
        store.create(device("phone"));

        StoredDevice loaded = store.load("phone");
        Path file = directory.resolve("devices/phone.json");

        assertThat(loaded.subject()).isEqualTo("alice");
        assertThat(loaded.privateKey()).containsExactly(1, 2, 3);
        assertThat(loaded.environment()).isEqualTo(AttestEnvironment.DEVELOPMENT);
        assertThat(Files.readString(file)).contains("\"privateKey\" : \"AQID\"", "\"counter\" : 0", "\"environment\" : \"DEVELOPMENT\"",
                "\"createdAt\" : \"20");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent()))).isEqualTo("rwx------");
    }

    @Test
    void neverReplacesADevicesKey() {
        var store = new DeviceStore(directory);
        store.create(device("phone"));

        assertThatThrownBy(() -> store.create(device("phone"))).isInstanceOf(DeviceExistsException.class);
    }

    @Test
    void refusesUnknownDevicesAndNamesThatAreNotPlainFileNames() {
        var store = new DeviceStore(directory);

        assertThatThrownBy(() -> store.load("nobody")).isInstanceOf(UnknownDeviceException.class);
        assertThatThrownBy(() -> store.load("../phone")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.create(device(".hidden"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void handsOutEachCounterOnceAndOnDiskFirst() throws Exception {
        var store = new DeviceStore(directory);
        store.create(device("phone"));
        List<Long> counters = Collections.synchronizedList(new ArrayList<>());

        try (var threads = Executors.newFixedThreadPool(4)) {
            IntStream.range(0, 40).forEach(i -> threads.submit(() -> counters.add(store.nextCounter("phone"))));
        }

        assertThat(counters).doesNotHaveDuplicates().hasSize(40);
        assertThat(new DeviceStore(directory).load("phone").counter()).isEqualTo(40);
    }

    @Test
    void remembersAnOperationsExactBodyOnce() {
        var store = new DeviceStore(directory);
        store.create(device("phone"));
        byte[] body = ("{\"type\":\"checkout\", \"arguments\":{\"sku\":\"SKU-ESPRESSO\",\"quantity\":1,\"amount\":49.90,"
                + "\"currency\":\"EUR\",\"recipient\":\"ann@example.com\"}}").getBytes(StandardCharsets.UTF_8);
        var operation = new StoredOperation("0b6f5c2e-3f0c-4d47-9a36-2a8f1f0f4f11", body, Instant.now());

        store.remember("phone", operation);
        store.remember("phone", operation);

        var loaded = store.load("phone");
        assertThat(loaded.operations()).hasSize(1);
        assertThat(loaded.operation(operation.operationId()).orElseThrow().body()).isEqualTo(body);
        assertThatThrownBy(() -> store.remember("phone", new StoredOperation(operation.operationId(),
                "{}".getBytes(StandardCharsets.UTF_8), Instant.now())))
                .isInstanceOf(OperationConflictException.class);
    }

    @Test
    void leavesNoTemporaryFilesBehind() throws IOException {
        var store = new DeviceStore(directory);
        store.create(device("phone"));
        store.nextCounter("phone");

        try (var files = Files.list(directory)) {
            assertThat(files.map(path -> path.getFileName().toString())).containsExactlyInAnyOrder("phone.json", "phone.lock");
        }
    }
}
