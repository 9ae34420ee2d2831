package dev.opledger.attest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.attest.internal.EcdsaP256;
import dev.opledger.attest.internal.P256;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** BouncyCastle's verification decides as the JDK's SHA256withECDSA does, on good and broken signatures. */
class EcdsaP256Test {

    @Test
    void agreesWithTheJdkOnEveryCase() throws Exception {
        var generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        var random = new Random(256);
        for (int i = 0; i < 200; i++) {
            KeyPair keys = generator.generateKeyPair();
            byte[] message = new byte[32];
            random.nextBytes(message);
            var signer = Signature.getInstance("SHA256withECDSA");
            signer.initSign(keys.getPrivate());
            signer.update(message);
            byte[] signature = signer.sign();
            byte[] point = P256.uncompressed(keys.getPublic());

            byte[] changedSignature = signature.clone();
            changedSignature[random.nextInt(signature.length)] ^= (byte) (1 << random.nextInt(8));
            byte[] changedMessage = message.clone();
            changedMessage[random.nextInt(32)] ^= 1;

            assertThat(EcdsaP256.verify(point, message, signature)).isTrue();
            assertThat(EcdsaP256.verify(point, changedMessage, signature)).isFalse();
            assertThat(EcdsaP256.verify(point, message, changedSignature))
                    .isEqualTo(jdkVerifies(keys, message, changedSignature));
        }
    }

    private static boolean jdkVerifies(KeyPair keys, byte[] message, byte[] signature) throws Exception {
        var verifier = Signature.getInstance("SHA256withECDSA");
        verifier.initVerify(keys.getPublic());
        verifier.update(message);
        try {
            return verifier.verify(signature);
        } catch (java.security.SignatureException malformed) {
            return false;
        }
    }
}
