package io.sluice.relay.tls;

import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;

/**
 * A certificate chain and the private key of its first certificate, read from PEM files and
 * checked to make a working identity: the key belongs to the certificate, which has not expired.
 * Sluice presents one to its clients (the ports) and one to brokers that ask for it (the upstream).
 *
 * @param chain the certificate first, then any intermediates
 * @param key   the certificate's private key
 */
public record CertifiedKey(List<X509Certificate> chain, PrivateKey key) {

    /**
     * Reads and checks the pair.
     *
     * @throws TlsFileException naming the file at fault
     */
    public static CertifiedKey read(Path chainFile, Path keyFile) {
        List<X509Certificate> chain = PemFiles.certificates(chainFile);
        PrivateKey key = PemFiles.privateKey(keyFile);
        X509Certificate leaf = chain.get(0);
        if (leaf.getNotAfter().toInstant().isBefore(Instant.now())) {
            throw new TlsFileException(
                    chainFile,
                    "the certificate " + leaf.getSubjectX500Principal().getName() + " expired on "
                            + leaf.getNotAfter().toInstant());
        }
        if (!KeyPairCheck.matches(key, leaf.getPublicKey())) {
            throw new TlsFileException(keyFile, "the private key does not belong to the certificate in " + chainFile);
        }
        return new CertifiedKey(List.copyOf(chain), key);
    }

    /** The certificate's subject, serial and expiry, for the log. */
    public String describe() {
        X509Certificate leaf = chain.get(0);
        return leaf.getSubjectX500Principal().getName() + " (serial "
                + leaf.getSerialNumber().toString(16) + ", valid until "
                + leaf.getNotAfter().toInstant() + ")";
    }
}
