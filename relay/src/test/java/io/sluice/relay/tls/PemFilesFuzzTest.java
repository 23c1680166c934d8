package io.sluice.relay.tls;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sluice.testing.ByteMutator;
import io.sluice.testkit.tls.CertificateAuthority;
import io.sluice.testkit.tls.CertificateAuthority.IssuedCertificate;
import io.sluice.testkit.tls.CertificateAuthority.KeyEncoding;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Whatever a certificate or key file holds, reading it gives certificates, a key, or a
 * {@link TlsFileException} naming the file, never another exception: arbitrary bytes as a file
 * (Jazzer), and in every build mutated DER inside each kind of PEM block Sluice reads (a
 * certificate, PKCS#8, PKCS#1 and SEC1 keys), which reaches the DER readers of the JDK and of
 * {@link Pkcs8} rather than stopping at the PEM armour.
 */
class PemFilesFuzzTest {

    private static final int ROUNDS = 1_000;
    private static final String[] TYPES = {"CERTIFICATE", "PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY"};

    @TempDir
    Path dir;

    @FuzzTest(maxDuration = "10m")
    void file(byte[] content) throws IOException {
        Path file = Files.createTempFile("sluice-pem-fuzz", ".pem");
        try {
            Files.write(file, content);
            read(file);
        } finally {
            Files.delete(file);
        }
    }

    @Test
    void mutatedDerInEveryKindOfBlockReadsOrFailsCleanly() throws IOException {
        CertificateAuthority ca = CertificateAuthority.create(dir, "fuzz CA");
        List<byte[]> seeds = new ArrayList<>();
        for (IssuedCertificate issued : List.of(
                ca.issue("ec").write(),
                ca.issue("ec-sec1").keyEncoding(KeyEncoding.TRADITIONAL).write(),
                ca.issue("rsa-pkcs1").rsa().keyEncoding(KeyEncoding.TRADITIONAL).write())) {
            seeds.add(der(issued.certificate()));
            seeds.add(der(issued.key()));
        }
        ByteMutator mutator = new ByteMutator(20261130L, seeds);
        Path file = dir.resolve("mutated.pem");
        int read = 0;
        for (int round = 0; round < ROUNDS; round++) {
            String type = TYPES[round % TYPES.length];
            Files.writeString(
                    file,
                    "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder().encodeToString(mutator.next())
                            + "\n-----END " + type + "-----\n");
            read += read(file);
        }
        assertTrue(read > 0, "some mutations still read");
    }

    /** 1 when the file read as certificates or a key, 0 when refused with a TlsFileException. */
    private static int read(Path file) {
        int read = 0;
        try {
            PemFiles.certificates(file);
            read = 1;
        } catch (TlsFileException refused) {
            assertTrue(refused.getMessage().startsWith(file + ": "), refused.getMessage());
        } catch (RuntimeException unexpected) {
            fail(file + " threw " + unexpected, unexpected);
        }
        try {
            PemFiles.privateKey(file);
            read = 1;
        } catch (TlsFileException refused) {
            assertTrue(refused.getMessage().startsWith(file + ": "), refused.getMessage());
        } catch (RuntimeException unexpected) {
            fail(file + " threw " + unexpected, unexpected);
        }
        return read;
    }

    /** The DER inside a one-block PEM file. */
    private static byte[] der(Path pem) {
        try {
            String text = Files.readString(pem, StandardCharsets.US_ASCII);
            return Base64.getMimeDecoder().decode(text.replaceAll("-----[A-Z ]+-----", ""));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
