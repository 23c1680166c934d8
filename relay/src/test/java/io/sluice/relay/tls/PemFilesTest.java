package io.sluice.relay.tls;

import io.sluice.testkit.tls.CertificateAuthority;
import io.sluice.testkit.tls.CertificateAuthority.IssuedCertificate;
import io.sluice.testkit.tls.CertificateAuthority.KeyEncoding;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The key and certificate files cert-manager and OpenSSL write are read; anything else is refused by name. */
class PemFilesTest {

    /** Stands for key material: no message may quote it. */
    private static final String SECRET = "c2VjcmV0LWtleS1tYXRlcmlhbA";

    @TempDir
    Path dir;

    @Test
    void readsEcAndRsaKeysInPkcs8AndInOpenSslsTraditionalForms() {
        CertificateAuthority ca = CertificateAuthority.create(dir, "test CA");
        for (IssuedCertificate issued : List.of(
                ca.issue("ec-pkcs8").write(),
                ca.issue("ec-sec1").keyEncoding(KeyEncoding.TRADITIONAL).write(),
                ca.issue("rsa-pkcs8").rsa().write(),
                ca.issue("rsa-pkcs1").rsa().keyEncoding(KeyEncoding.TRADITIONAL).write())) {
            PrivateKey key = PemFiles.privateKey(issued.key());
            assertEquals(
                    issued.privateKey().getAlgorithm(),
                    key.getAlgorithm(),
                    issued.key().toString());
            assertTrue(
                    KeyPairCheck.matches(key, issued.x509().getPublicKey()),
                    issued.key().toString());
        }
        assertTrue(readsAsTraditional(dir.resolve("ec-sec1.key"), "EC PRIVATE KEY"));
        assertTrue(readsAsTraditional(dir.resolve("rsa-pkcs1.key"), "RSA PRIVATE KEY"));
    }

    @Test
    void readsAChainInOrderAndIgnoresTextAroundTheBlocks() throws Exception {
        CertificateAuthority ca = CertificateAuthority.create(dir, "chain CA");
        IssuedCertificate leaf = ca.issue("leaf").hosts("localhost").write();
        Path chain = dir.resolve("chain.pem");
        Files.writeString(
                chain,
                "subject=CN = leaf\n" + Files.readString(leaf.certificate()) + "\n# the issuer\n"
                        + Files.readString(ca.certificateFile()));
        List<X509Certificate> certificates = PemFiles.certificates(chain);
        assertEquals(List.of(leaf.x509(), ca.certificate()), certificates);
    }

    @Test
    void aKeyThatDoesNotBelongToTheCertificateIsNoMatch() {
        CertificateAuthority ca = CertificateAuthority.create(dir, "test CA");
        IssuedCertificate one = ca.issue("one").write();
        IssuedCertificate other = ca.issue("other").write();
        IssuedCertificate rsa = ca.issue("rsa").rsa().write();
        assertFalse(KeyPairCheck.matches(
                PemFiles.privateKey(one.key()), other.x509().getPublicKey()));
        assertFalse(
                KeyPairCheck.matches(PemFiles.privateKey(rsa.key()), one.x509().getPublicKey()));
    }

    @Test
    void unusableFilesAreRefusedNamingTheFileAndNeverQuotingIt() throws Exception {
        CertificateAuthority ca = CertificateAuthority.create(dir, "test CA");
        IssuedCertificate issued = ca.issue("server").write();
        assertRefused(dir.resolve("absent.pem"), "no such file", true);
        assertRefused(write("empty.pem", ""), "not a PEM file", true);
        assertRefused(write("binary.pem", "\u0000\u00ff" + SECRET), "not a PEM file", true);
        assertRefused(
                write(
                        "encrypted.key",
                        "-----BEGIN ENCRYPTED PRIVATE KEY-----\n" + SECRET + "\n-----END ENCRYPTED PRIVATE KEY-----\n"),
                "encrypted",
                false);
        assertRefused(
                write("garbage.key", "-----BEGIN PRIVATE KEY-----\n" + SECRET + "\n-----END PRIVATE KEY-----\n"),
                "not an RSA, EC",
                false);
        assertRefused(
                write(
                        "garbage-sec1.key",
                        "-----BEGIN EC PRIVATE KEY-----\n" + SECRET + "\n-----END EC PRIVATE KEY-----\n"),
                "does not name its curve",
                false);
        assertRefused(issued.certificate(), "no PEM private key", false);
        assertRefused(
                write("two.key", Files.readString(issued.key()) + Files.readString(issued.key())),
                "more than one",
                false);
        assertRefused(
                write("garbage.crt", "-----BEGIN CERTIFICATE-----\n" + SECRET + "\n-----END CERTIFICATE-----\n"),
                "not a valid X.509",
                true);
        assertRefused(issued.key(), "no PEM certificate", true);
    }

    private Path write(String name, String content) throws Exception {
        return Files.writeString(dir.resolve(name), content);
    }

    private static void assertRefused(Path file, String problem, boolean asCertificate) {
        TlsFileException e = assertThrows(TlsFileException.class, () -> {
            if (asCertificate) {
                PemFiles.certificates(file);
            } else {
                PemFiles.privateKey(file);
            }
        });
        assertEquals(file, e.file());
        assertTrue(e.getMessage().startsWith(file + ": ") && e.getMessage().contains(problem), e.getMessage());
        assertFalse(e.getMessage().contains(SECRET), e.getMessage());
    }

    private static boolean readsAsTraditional(Path key, String type) {
        try {
            return Files.readString(key).contains("-----BEGIN " + type + "-----");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
