package dev.opledger.cli.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.attest.TrustRoots;
import java.security.GeneralSecurityException;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.bouncycastle.asn1.ASN1String;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.junit.jupiter.api.Test;

class DevAuthorityTest {

    private static final String ROOT_FINGERPRINT =
            "45:AC:D8:26:70:C0:D5:AE:1E:9B:5D:E4:63:4A:52:AD:10:7A:57:97:EB:7A:D6:C8:54:00:CE:08:5E:C9:D6:AC";
    private static final DevAuthority AUTHORITY = DevAuthority.get();

    @Test
    void theBackendTrustsTheSameRootTheCliSignsUnder() {
        List<X509Certificate> backendCopy = TrustRoots.load(DevAuthority.ROOT_LOCATION);

        assertThat(backendCopy).containsExactly(AUTHORITY.root());
        assertThat(DevAuthorityGenerator.fingerprint(AUTHORITY.root())).isEqualTo(ROOT_FINGERPRINT);
    }

    @Test
    void theRootIsAP384CaOfTwentyYearsThatSaysItIsNotApple() throws GeneralSecurityException {
        X509Certificate root = AUTHORITY.root();

        root.verify(root.getPublicKey());
        var commonName = X500Name.getInstance(root.getSubjectX500Principal().getEncoded()).getRDNs(BCStyle.CN)[0];
        assertThat(((ASN1String) commonName.getFirst().getValue()).getString()).contains("NOT Apple, local/test only");
        assertThat(((ECPublicKey) root.getPublicKey()).getParams().getCurve().getField().getFieldSize()).isEqualTo(384);
        assertThat(root.getBasicConstraints()).isGreaterThanOrEqualTo(0);
        assertThat(Duration.between(root.getNotBefore().toInstant(), root.getNotAfter().toInstant()).toDays())
                .isBetween(365L * 20 - 1, 365L * 20 + 6);
    }

    @Test
    void theDeviceCaAndTheReceiptSignerChainToTheRoot() throws GeneralSecurityException {
        assertThat(AUTHORITY.deviceCa().getBasicConstraints()).isZero();
        assertThat(AUTHORITY.receiptSigner().getBasicConstraints()).isEqualTo(-1);
        validate(AUTHORITY.deviceCa(), AUTHORITY.root());
        validate(AUTHORITY.receiptSigner(), AUTHORITY.root());
    }

    @Test
    void applesRootDoesNotTrustTheDevelopmentChain() {
        X509Certificate apple = TrustRoots.load(TrustRoots.APPLE_ATTESTATION_ROOT).getFirst();

        assertThatThrownBy(() -> validate(AUTHORITY.deviceCa(), apple)).isInstanceOf(GeneralSecurityException.class);
    }

    private static void validate(X509Certificate certificate, X509Certificate root) throws GeneralSecurityException {
        var parameters = new PKIXParameters(Set.of(new TrustAnchor(root, null)));
        parameters.setRevocationEnabled(false);
        CertPathValidator.getInstance("PKIX")
                .validate(CertificateFactory.getInstance("X.509").generateCertPath(List.of(certificate)), parameters);
    }
}
