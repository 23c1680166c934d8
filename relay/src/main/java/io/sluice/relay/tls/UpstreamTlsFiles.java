package io.sluice.relay.tls;

import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocketFactory;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * How Sluice checks the broker it connects to over TLS: the broker's certificate must chain to
 * the CA certificates of {@code ca} (the JDK's trust store when null) and name the host Sluice
 * dialled (hostname verification, as HTTPS does).
 *
 * @param ca CA certificates (PEM), or null for the JDK's trust store
 */
public record UpstreamTlsFiles(Path ca) implements TlsSource {

    /** The check HTTPS makes: the certificate's subject alternative names must match the host dialled. */
    private static final String HOSTNAME_VERIFICATION = "HTTPS";

    @Override
    public Built build(SslProvider provider) {
        SslContextBuilder builder = SslContextBuilder.forClient()
                .sslProvider(provider)
                .protocols(TlsProvider.PROTOCOLS)
                .endpointIdentificationAlgorithm(HOSTNAME_VERIFICATION);
        String trusted = "the JDK's trust store";
        if (ca != null) {
            List<X509Certificate> authorities = PemFiles.certificates(ca);
            builder.trustManager(authorities);
            trusted = authorities.size() + " CA certificate" + (authorities.size() == 1 ? "" : "s") + " from " + ca;
        }
        try {
            return new Built(
                    builder.build(), "brokers' certificates checked against " + trusted + ", hostname verified");
        } catch (SSLException | RuntimeException e) {
            throw new TlsFileException(
                    ca == null ? Path.of("<JDK trust store>") : ca, "cannot trust it: " + e.getMessage(), e);
        }
    }

    /**
     * Blocking sockets trusting the same CA, for a client on a thread of its own (never an event
     * loop). The caller turns hostname verification on for each socket ({@code SSLParameters}).
     *
     * @throws TlsFileException when the CA file cannot be used
     */
    public SSLSocketFactory blockingSockets() {
        return ((JdkSslContext) build(SslProvider.JDK).context()).context().getSocketFactory();
    }

    @Override
    public List<Path> files() {
        return ca == null ? List.of() : List.of(ca);
    }
}
