package io.sluice.server;

import java.nio.file.Path;

/**
 * Where Sluice speaks TLS and with which files (docs/REFERENCE.md, "TLS").
 *
 * @param certificate    {@code --tls-cert}: the PEM certificate chain of the Pulsar, Kafka and
 *                       admin ports, or null for plaintext ports
 * @param key            {@code --tls-key}: its PEM private key
 * @param clientCa       {@code --tls-client-ca}: the CA Pulsar and Kafka clients' certificates
 *                       must chain to, or null to ask for none
 * @param pulsarUpstream whether Sluice speaks TLS to the Pulsar brokers ({@code --upstream pulsar+ssl://})
 * @param upstreamCa     {@code --upstream-tls-ca}: the CA brokers' certificates must chain to, or
 *                       null for the JDK's trust store
 * @param kafkaUpstream  whether Sluice speaks TLS to the Kafka brokers ({@code --kafka-upstream-tls})
 */
public record TlsConfig(
        Path certificate, Path key, Path clientCa, boolean pulsarUpstream, Path upstreamCa, boolean kafkaUpstream) {

    /** Plaintext everywhere. */
    public static final TlsConfig NONE = new TlsConfig(null, null, null, false, null, false);

    public TlsConfig {
        if ((certificate == null) != (key == null)) {
            throw new IllegalArgumentException("a TLS certificate and its key go together");
        }
        if (clientCa != null && certificate == null) {
            throw new IllegalArgumentException("client certificates need the ports to speak TLS");
        }
    }

    /** TLS as given, with a plaintext Kafka upstream. */
    public TlsConfig(Path certificate, Path key, Path clientCa, boolean pulsarUpstream, Path upstreamCa) {
        this(certificate, key, clientCa, pulsarUpstream, upstreamCa, false);
    }

    /** Whether the client-facing ports speak TLS. */
    public boolean serves() {
        return certificate != null;
    }

    /** Whether Sluice speaks TLS to any upstream. */
    public boolean toUpstream() {
        return pulsarUpstream || kafkaUpstream;
    }
}
