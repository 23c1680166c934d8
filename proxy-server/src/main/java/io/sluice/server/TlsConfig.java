package io.sluice.server;

import java.nio.file.Path;

/**
 * Where Sluice speaks TLS and with which files (docs/REFERENCE.md, "TLS"). Whether a front end's
 * upstream speaks TLS is the front end's own option ({@code FrontEndConfig.upstreamTls()}).
 *
 * @param certificate {@code --tls-cert}: the PEM certificate chain of every front end's ports and
 *                    the admin port, or null for plaintext ports
 * @param key         {@code --tls-key}: its PEM private key
 * @param clientCa    {@code --tls-client-ca}: the CA the front ends' clients' certificates must
 *                    chain to, or null to ask for none
 * @param upstreamCa  {@code --upstream-tls-ca}: the CA brokers' certificates must chain to, or
 *                    null for the JDK's trust store
 * @param upstreamCertificate {@code --upstream-tls-cert}: the PEM certificate chain Sluice presents
 *                    to brokers that require one, or null to present none
 * @param upstreamKey {@code --upstream-tls-key}: its PEM private key
 */
public record TlsConfig(
        Path certificate, Path key, Path clientCa, Path upstreamCa, Path upstreamCertificate, Path upstreamKey) {

    /** Plaintext everywhere. */
    public static final TlsConfig NONE = new TlsConfig(null, null, null, null, null, null);

    public TlsConfig {
        if ((certificate == null) != (key == null)) {
            throw new IllegalArgumentException("a TLS certificate and its key go together");
        }
        if ((upstreamCertificate == null) != (upstreamKey == null)) {
            throw new IllegalArgumentException("an upstream client certificate and its key go together");
        }
        if (clientCa != null && certificate == null) {
            throw new IllegalArgumentException("client certificates need the ports to speak TLS");
        }
    }

    /** Whether the client-facing ports speak TLS. */
    public boolean serves() {
        return certificate != null;
    }
}
