package io.sluice.testkit.tls;

import io.sluice.testkit.tls.CertificateAuthority.IssuedCertificate;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;

/**
 * JDK {@link SSLContext}s for a test's own clients (raw sockets, {@code java.net.http}) that trust
 * a test CA and may present a certificate of their own.
 */
public final class ClientSslContexts {

    private static final char[] PASSWORD = "unused".toCharArray();

    private ClientSslContexts() {}

    /** Trusts the CA certificates of {@code caFile} (PEM) only. */
    public static SSLContext trusting(Path caFile) {
        return trusting(caFile, null);
    }

    /** Trusts {@code caFile} and presents {@code identity} when the server asks for a certificate. */
    public static SSLContext trusting(Path caFile, IssuedCertificate identity) {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            int i = 0;
            try (InputStream in = Files.newInputStream(caFile)) {
                for (Certificate ca : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                    trust.setCertificateEntry("ca-" + i++, ca);
                }
            }
            TrustManagerFactory trustManagers =
                    TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trustManagers.init(trust);
            KeyManagerFactory keyManagers = null;
            if (identity != null) {
                KeyStore keys = KeyStore.getInstance("PKCS12");
                keys.load(null, null);
                keys.setKeyEntry("client", identity.privateKey(), PASSWORD, new Certificate[] {identity.x509()});
                keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keyManagers.init(keys, PASSWORD);
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(
                    keyManagers == null ? null : keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
            return context;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
