package io.sluice.relay.tls;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

import javax.net.ssl.SSLException;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A TLS server's files: its certificate chain and private key (PEM), and optionally the CA that
 * client certificates must chain to (mutual TLS: a client without such a certificate is refused
 * during the handshake).
 *
 * <p>A context is built only from files that make a working server: the key must belong to the
 * first certificate of the chain, and that certificate must not have expired.
 *
 * @param certificateChain the server's certificate first, then any intermediates
 * @param privateKey       the key of the first certificate
 * @param clientCa         CA certificates for client certificates, or null to ask for none
 */
public record ServerTlsFiles(Path certificateChain, Path privateKey, Path clientCa) implements TlsSource {

    public ServerTlsFiles {
        Objects.requireNonNull(certificateChain, "certificateChain");
        Objects.requireNonNull(privateKey, "privateKey");
    }

    @Override
    public Built build(SslProvider provider) {
        CertifiedKey identity = CertifiedKey.read(certificateChain, privateKey);
        SslContextBuilder builder = SslContextBuilder.forServer(identity.key(), identity.chain())
                .sslProvider(provider)
                .protocols(TlsProvider.PROTOCOLS);
        String clients = "";
        if (clientCa != null) {
            List<X509Certificate> authorities = PemFiles.certificates(clientCa);
            builder.trustManager(authorities).clientAuth(ClientAuth.REQUIRE);
            clients = ", client certificates required (" + authorities.size() + " CA certificate"
                    + (authorities.size() == 1 ? "" : "s") + " from " + clientCa + ")";
        }
        try {
            return new Built(builder.build(), identity.describe() + clients);
        } catch (SSLException | RuntimeException e) {
            throw new TlsFileException(
                    certificateChain, "cannot serve TLS with it and " + privateKey + ": " + e.getMessage(), e);
        }
    }

    @Override
    public List<Path> files() {
        List<Path> files = new ArrayList<>(List.of(certificateChain, privateKey));
        if (clientCa != null) {
            files.add(clientCa);
        }
        return files;
    }
}
