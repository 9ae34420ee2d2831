package dev.opledger.cli.command;

import dev.opledger.attest.AppleSample;
import java.util.Base64;

/** The shared real-device samples (protocol's test-jar) as the base64 text the CLI takes. */
final class SampleArguments {

    private SampleArguments() {
    }

    static String base64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }

    /** The arguments of {@code verify attestation} for Apple's sample, checked at {@code at}. */
    static String[] verifyAttestation(AppleSample sample, String at) {
        return new String[] {"verify", "attestation", "--attestation", base64(sample.attestation()),
            "--key-id", base64(sample.keyId()), "--client-data-hash", base64(sample.clientDataHash()),
            "--app", sample.app().value(), "--environment", "production", "--at", at};
    }
}
