package io.sluice.server.it.kafka;

import io.sluice.testkit.kafka.KafkaCluster;
import io.sluice.testkit.tls.CertificateAuthority;
import io.sluice.testkit.tls.CertificateAuthority.IssuedCertificate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The Kafka cluster of the Kafka integration tests, started once per test JVM: three brokers and a
 * controller, a SASL listener with users {@code alice} and {@code bob}, an SSL listener whose certificate (from
 * {@link #ca}) names the advertised host and an MTLS listener beside it that requires a client
 * certificate of {@link #ca}, messages up to 6 MiB, and brokers that
 * advertise a host name no one but Sluice can resolve. Sluice runs as a process of its own with a
 * hosts file naming that host ({@link SluiceForKafka}); the tests' clients resolve names the usual
 * way, so a client that tried a broker's own address would fail to resolve it: everything they do
 * goes through Sluice.
 */
final class BrokersOnlySluiceReaches {

    /** The host the brokers advertise; {@code .invalid} never resolves through DNS. */
    static final String ADVERTISED_HOST = "broker.sluice-only.invalid";

    static final String SASL_USER = "alice";
    static final String SASL_PASSWORD = "alice-secret";
    /** A second SASL user, for limits by principal. */
    static final String SECOND_SASL_USER = "bob";

    static final String SECOND_SASL_PASSWORD = "bob-secret";
    /** The brokers' message.max.bytes: room for a 5 MiB record and its batch. */
    static final int MAX_MESSAGE_BYTES = 6 * 1024 * 1024;

    private static BrokersOnlySluiceReaches shared;

    final KafkaCluster cluster;
    /** A hosts file for Sluice's JVM ({@code -Djdk.net.hosts.file}) that resolves {@link #ADVERTISED_HOST}. */
    final Path hostsFile;
    /** The CA of the brokers' SSL listener, which may issue the tests' other certificates too. */
    final CertificateAuthority ca;

    private BrokersOnlySluiceReaches(KafkaCluster cluster, Path hostsFile, CertificateAuthority ca) {
        this.cluster = cluster;
        this.hostsFile = hostsFile;
        this.ca = ca;
    }

    static synchronized BrokersOnlySluiceReaches get() {
        if (shared == null) {
            try {
                Path hosts = Files.createTempFile("sluice-hosts", ".txt");
                hosts.toFile().deleteOnExit();
                Files.writeString(hosts, "127.0.0.1 " + ADVERTISED_HOST + "\n127.0.0.1 localhost\n");
                CertificateAuthority ca =
                        CertificateAuthority.create(Files.createTempDirectory("sluice-kafka-ca"), "Kafka test CA");
                IssuedCertificate broker =
                        ca.issue("broker").hosts(ADVERTISED_HOST, "127.0.0.1").write();
                KafkaCluster cluster = KafkaCluster.builder()
                        .saslUser(SASL_USER, SASL_PASSWORD)
                        .saslUser(SECOND_SASL_USER, SECOND_SASL_PASSWORD)
                        .tls(broker.certificate(), broker.key())
                        .requireClientCertificates(ca.certificateFile())
                        .advertisedHost(ADVERTISED_HOST)
                        .brokerConfig("message.max.bytes", Integer.toString(MAX_MESSAGE_BYTES))
                        .brokerConfig("replica.fetch.max.bytes", Integer.toString(MAX_MESSAGE_BYTES))
                        .start();
                Runtime.getRuntime().addShutdownHook(new Thread(cluster::close, "kafka-cluster-stop"));
                shared = new BrokersOnlySluiceReaches(cluster, hosts, ca);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return shared;
    }

    /** The brokers' PLAINTEXT listeners, by address: for Sluice's {@code --kafka-upstream}, never for a client. */
    String plaintextBootstrap() {
        return cluster.bootstrapServers();
    }

    /**
     * The brokers' MTLS listeners (client certificates of {@link #ca} required), by address: for
     * Sluice's {@code --kafka-upstream}, never for a client.
     */
    String mutualTlsBootstrap() {
        return cluster.mutualTlsBootstrapServers();
    }

    /** The brokers' SSL listeners, by address: for Sluice's {@code --kafka-upstream}, never for a client. */
    String sslBootstrap() {
        return cluster.sslBootstrapServers();
    }

    /** The brokers' SASL_PLAINTEXT listeners, by address: for Sluice's {@code --kafka-upstream}, never for a client. */
    String saslBootstrap() {
        return cluster.saslBootstrapServers();
    }
}
