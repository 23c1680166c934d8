package io.sluice.cli;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;

/**
 * Which HTTPS servers the CLI believes: those whose certificate chains to the CA certificates of
 * {@code --ca-file}, or, inside Sluice's own container, the server presenting exactly the
 * certificate of the server's {@code SLUICE_TLS_CERT} (it is reached as 127.0.0.1, a name its
 * certificate does not carry, so the certificate itself is what is checked).
 */
final class AdminTrust {

    private AdminTrust() {}

    /** Trusts certificates chaining to the PEM CA certificates of {@code caFile}, with hostname verification. */
    static SSLContext chainingTo(Path caFile, String source) {
        try {
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            int i = 0;
            for (Certificate ca : read(caFile, source)) {
                trusted.setCertificateEntry("ca-" + i++, ca);
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trusted);
            return context(factory.getTrustManagers());
        } catch (IOException | GeneralSecurityException e) {
            throw CliFailure.usage("cannot use the CA file " + caFile + " (" + source + "): " + e.getMessage(), e);
        }
    }

    /** Trusts a server presenting one of the certificates of {@code certificateFile} as its own, whatever its name. */
    static SSLContext pinnedTo(Path certificateFile, String source) {
        List<Certificate> pinned = read(certificateFile, source);
        return context(new TrustManager[] {
            new X509ExtendedTrustManager() {
                @Override
                public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                        throws CertificateException {
                    checkServerTrusted(chain, authType);
                }

                @Override
                public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                        throws CertificateException {
                    checkServerTrusted(chain, authType);
                }

                @Override
                public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
                    if (chain.length == 0 || !pinned.contains(chain[0])) {
                        throw new CertificateException("the server's certificate is not the one in " + certificateFile);
                    }
                }

                @Override
                public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                        throws CertificateException {
                    throw new CertificateException("a client's trust only");
                }

                @Override
                public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                        throws CertificateException {
                    throw new CertificateException("a client's trust only");
                }

                @Override
                public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
                    throw new CertificateException("a client's trust only");
                }

                @Override
                public X509Certificate[] getAcceptedIssuers() {
                    return new X509Certificate[0];
                }
            }
        });
    }

    private static SSLContext context(TrustManager[] trustManagers) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trustManagers, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no TLS", e);
        }
    }

    private static List<Certificate> read(Path file, String source) {
        try (InputStream in = Files.newInputStream(file)) {
            List<Certificate> certificates =
                    new ArrayList<>(CertificateFactory.getInstance("X.509").generateCertificates(in));
            if (certificates.isEmpty()) {
                throw CliFailure.usage("no certificate in " + file + " (" + source + ")");
            }
            return certificates;
        } catch (IOException | CertificateException e) {
            throw CliFailure.usage("cannot read certificates from " + file + " (" + source + "): " + e.getMessage(), e);
        }
    }
}
