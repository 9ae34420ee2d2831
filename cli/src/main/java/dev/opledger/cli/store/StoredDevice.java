package dev.opledger.cli.store;

import dev.opledger.attest.AttestEnvironment;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A registered simulated device as its file keeps it. Byte fields are base64 in the file.
 *
 * @param server the node it registered with
 * @param subject whose device it is: the {@code sub} of its bearer tokens
 * @param app the App ID ({@code <teamId>.<bundleId>}) whose rpIdHash it writes
 * @param ios27 whether it appends iOS 27's extension data
 * @param keyId SHA-256 of {@code publicKey}
 * @param publicKey the 65-byte uncompressed P-256 point
 * @param privateKey PKCS#8 DER
 * @param counter the counter of the last assertion made, whether or not it reached the node
 */
public record StoredDevice(String name, URI server, String subject, String app, AttestEnvironment environment,
        boolean ios27, byte[] keyId, byte[] publicKey, byte[] privateKey, long counter, Instant createdAt,
        List<StoredOperation> operations) {

    public StoredDevice {
        operations = List.copyOf(operations);
    }

    public StoredDevice withCounter(long next) {
        return new StoredDevice(name, server, subject, app, environment, ios27, keyId, publicKey, privateKey, next,
                createdAt, operations);
    }

    public StoredDevice withOperation(StoredOperation operation) {
        List<StoredOperation> more = new ArrayList<>(operations);
        more.add(operation);
        return new StoredDevice(name, server, subject, app, environment, ios27, keyId, publicKey, privateKey, counter,
                createdAt, more);
    }

    public Optional<StoredOperation> operation(String operationId) {
        return operations.stream().filter(operation -> operation.operationId().equals(operationId)).findFirst();
    }
}
