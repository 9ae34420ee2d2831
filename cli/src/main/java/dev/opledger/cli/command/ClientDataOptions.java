package dev.opledger.cli.command;

import dev.opledger.attest.ClientData;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** The clientDataHash, given directly or as the client data it is SHA-256 of. */
class ClientDataOptions {

    @Option(names = "--client-data", required = true, paramLabel = "B64",
            description = "the client data (base64); its SHA-256 is the clientDataHash")
    @Nullable String clientData;

    @Option(names = "--client-data-hash", required = true, paramLabel = "B64",
            description = "the clientDataHash (base64), as the app passed it: usually 32 bytes, any length verifies")
    @Nullable String clientDataHash;

    byte[] hash() {
        if (clientDataHash != null) {
            // Any length, as the node's verifier takes it: Apple's own sample passes its 21-byte
            // challenge itself, and a verifier that insisted on 32 bytes could not check it.
            byte[] hash = Inputs.base64("--client-data-hash", clientDataHash);
            if (hash.length == 0) {
                throw new UsageException("--client-data-hash is empty");
            }
            return hash;
        }
        // SHA-256 of the bytes, as for a registration: ClientData's helper hashes exactly that
        return ClientData.hashOfRegistration(Inputs.base64("--client-data", clientData == null ? "" : clientData));
    }
}
