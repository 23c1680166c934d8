package io.sluice.relay.tls;

import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocketFactory;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;

/**
 * How Sluice speaks TLS to the broker it connects to: the broker's certificate must chain to the CA
 * certificates of {@code ca} (the JDK's trust store when null) and name the host Sluice dialled
 * (hostname verification, as HTTPS does); to a broker whose listener requires a client certificate
 * ({@code ssl.client.auth=required}, {@code tlsRequireTrustedClientCertOnConnect}) Sluice presents
 * {@code certificateChain}, checked as a server's is ({@link CertifiedKey}).
 *
 * @param ca               CA certificates (PEM), or null for the JDK's trust store
 * @param certificateChain Sluice's client certificate first, then any intermediates, or null to present none
 * @param privateKey       its private key; null exactly when {@code certificateChain} is
 */
public record UpstreamTlsFiles(Path ca, Path certificateChain, Path privateKey) implements TlsSource {

    /** The check HTTPS makes: the certificate's subject alternative names must match the host dialled. */
    private static final String HOSTNAME_VERIFICATION = "HTTPS";

    public UpstreamTlsFiles {
        if ((certificateChain == null) != (privateKey == null)) {
            throw new IllegalArgumentException("a client certificate and its key go together");
        }
    }

    /** Trusting {@code ca}, presenting no certificate. */
    public UpstreamTlsFiles(Path ca) {
        this(ca, null, null);
    }

    @Override
    public Built build(SslProvider provider) {
        SslContextBuilder builder = SslContextBuilder.forClient()
                .sslProvider(provider)
                .protocols(TlsProvider.PROTOCOLS)
                .endpointIdentificationAlgorithm(HOSTNAME_VERIFICATION);
        String presented = "";
        if (certificateChain != null) {
            CertifiedKey identity = CertifiedKey.read(certificateChain, privateKey);
            builder.keyManager(identity.key(), identity.chain());
            presented = ", presenting " + identity.describe();
        }
        String trusted = "the JDK's trust store";
        if (ca != null) {
            List<X509Certificate> authorities = PemFiles.certificates(ca);
            builder.trustManager(authorities);
            trusted = authorities.size() + " CA certificate" + (authorities.size() == 1 ? "" : "s") + " from " + ca;
        }
        try {
            return new Built(
                    builder.build(),
                    "brokers' certificates checked against " + trusted + ", hostname verified" + presented);
        } catch (SSLException | RuntimeException e) {
            throw new TlsFileException(
                    ca == null ? Path.of("<JDK trust store>") : ca, "cannot trust it: " + e.getMessage(), e);
        }
    }

    /**
     * Blocking sockets trusting the same CA and presenting the same certificate, for a client on a
     * thread of its own (never an event loop). The caller turns hostname verification on for each
     * socket ({@code SSLParameters}).
     *
     * @throws TlsFileException when a file cannot be used
     */
    public SSLSocketFactory blockingSockets() {
        return ((JdkSslContext) build(SslProvider.JDK).context()).context().getSocketFactory();
    }

    @Override
    public List<Path> files() {
        List<Path> files = new ArrayList<>();
        if (ca != null) {
            files.add(ca);
        }
        if (certificateChain != null) {
            files.add(certificateChain);
            files.add(privateKey);
        }
        return files;
    }
}
