package io.sluice.server.it.kafka;

import io.sluice.testkit.tls.CertificateAuthority;
import io.sluice.testkit.tls.CertificateAuthority.IssuedCertificate;
import io.sluice.testkit.tls.ClientSslContexts;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLSocket;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stock Java client with {@code security.protocol=SSL} through Sluice's Kafka ports, bootstrap
 * and node ports alike: TLS to Sluice in front of the brokers' plaintext listener; mutual TLS in
 * front of their SSL listener, which Sluice verifies by the test CA and the host names it dials
 * ({@code --kafka-upstream-tls}); a plaintext peer on a TLS port; and a broker certificate Sluice
 * must not trust; and Sluice's own certificate presented to a listener that requires one
 * ({@code ssl.client.auth=required}), past a bootstrap server whose handshake fails, renewed without
 * a restart; and Sluice's own certificate rotated on disk while a producer keeps sending.
 */
class KafkaTlsIT {

    private static BrokersOnlySluiceReaches brokers;
    private static CertificateAuthority ca;
    private static IssuedCertificate sluiceCertificate;
    private static Path clientIdentity;
    private static SluiceForKafka tlsToPlaintext;
    private static SluiceForKafka mutualTlsToTls;

    @BeforeAll
    static void start() throws IOException {
        brokers = BrokersOnlySluiceReaches.get();
        ca = brokers.ca;
        sluiceCertificate = ca.issue("sluice").hosts("127.0.0.1", "localhost").write();
        IssuedCertificate client = ca.issue("kafka-client").write();
        clientIdentity = Files.createTempFile("kafka-client", ".pem");
        Files.writeString(
                clientIdentity, Files.readString(client.key()) + "\n" + Files.readString(client.certificate()));
        tlsToPlaintext = SluiceForKafka.start(brokers, brokers.plaintextBootstrap(), serving());
        List<String> mutual = new ArrayList<>(List.of(serving()));
        mutual.addAll(List.of(
                "--tls-client-ca",
                ca.certificateFile().toString(),
                "--kafka-upstream-tls",
                "--upstream-tls-ca",
                ca.certificateFile().toString()));
        mutualTlsToTls = SluiceForKafka.start(brokers, brokers.sslBootstrap(), mutual.toArray(String[]::new));
    }

    private static String[] serving() {
        return new String[] {
            "--tls-cert",
            sluiceCertificate.certificate().toString(),
            "--tls-key",
            sluiceCertificate.key().toString()
        };
    }

    @AfterAll
    static void stop() {
        for (SluiceForKafka sluice : new SluiceForKafka[] {tlsToPlaintext, mutualTlsToTls}) {
            if (sluice != null) {
                sluice.closeCheckingLeaks();
            }
        }
    }

    @Test
    void sslClientsProduceAndConsumeThroughSluiceInFrontOfPlaintextBrokers() throws Exception {
        roundTrip(new KafkaClients(tlsToPlaintext.bootstrap(), ssl(false)));
    }

    @Test
    void clientsWithACertificateProduceAndConsumeThroughTlsOnBothLegs() throws Exception {
        String log = Files.readString(mutualTlsToTls.process.logFile());
        assertTrue(
                log.indexOf("Kafka node 1 served on port") >= 0
                        && log.indexOf("Kafka node 1 served on port") < log.indexOf("Sluice ready"),
                "Sluice asked a broker for the nodes over TLS before it was ready: " + log);
        roundTrip(new KafkaClients(mutualTlsToTls.bootstrap(), ssl(true)));
    }

    @Test
    void aClientWithoutACertificateIsRefusedWhereOneIsRequired() {
        KafkaClients anonymous = new KafkaClients(mutualTlsToTls.bootstrap(), ssl(false));
        try (Admin admin = anonymous.admin(
                CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG,
                "20000",
                CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG,
                "5000")) {
            ExecutionException failed = assertThrows(
                    ExecutionException.class,
                    () -> admin.describeCluster().nodes().get(30, TimeUnit.SECONDS));
            assertInstanceOf(SslAuthenticationException.class, failed.getCause());
        }
    }

    @Test
    void aPlaintextPeerOnATlsPortIsClosedAndCountedWhileTlsClientsCarryOn() throws Exception {
        KafkaClients clients = new KafkaClients(tlsToPlaintext.bootstrap(), ssl(false));
        String topic = "tls-beside-plaintext-" + UUID.randomUUID();
        clients.createTopics(1, topic);
        try (KafkaProducer<String, String> producer = clients.producer()) {
            producer.send(new ProducerRecord<>(topic, "before")).get(60, TimeUnit.SECONDS);
            double before =
                    metric(tlsToPlaintext, "sluice_protocol_errors_total{protocol=\"kafka\",reason=\"tls_handshake\"}");
            try (Socket plaintext = new Socket("127.0.0.1", tlsToPlaintext.kafkaPort)) {
                plaintext.setSoTimeout(10_000);
                DataOutputStream out = new DataOutputStream(plaintext.getOutputStream());
                out.write(apiVersionsRequest());
                out.flush();
                assertClosedWithoutAKafkaAnswer(plaintext.getInputStream());
            }
            assertEquals(
                    before + 1,
                    metric(
                            tlsToPlaintext,
                            "sluice_protocol_errors_total{protocol=\"kafka\",reason=\"tls_handshake\"}"));
            producer.send(new ProducerRecord<>(topic, "after")).get(60, TimeUnit.SECONDS);
        }
        assertEquals(List.of("before", "after"), consume(clients, topic, 2));
        String log = Files.readString(tlsToPlaintext.process.logFile());
        assertTrue(
                log.contains("on the Kafka port: TLS handshake failed: the peer does not speak TLS (tls_handshake)"),
                log);
    }

    @Test
    void sluiceRefusesBrokersWhoseCertificateItDoesNotTrust() throws Exception {
        CertificateAuthority other = CertificateAuthority.create(Files.createTempDirectory("other-ca"), "Another CA");
        List<String> options = new ArrayList<>(List.of(serving()));
        options.addAll(List.of(
                "--kafka-upstream-tls",
                "--upstream-tls-ca",
                other.certificateFile().toString()));
        try (SluiceForKafka distrustful =
                SluiceForKafka.start(brokers, brokers.sslBootstrap(), options.toArray(String[]::new))) {
            KafkaClients clients = new KafkaClients(distrustful.bootstrap(), ssl(false));
            try (Admin admin = clients.admin(
                    CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG,
                    "8000",
                    CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG,
                    "4000")) {
                assertThrows(
                        ExecutionException.class,
                        () -> admin.describeCluster().nodes().get(30, TimeUnit.SECONDS));
            }
            assertTrue(metric(distrustful, "sluice_upstream_connect_failures_total{protocol=\"kafka\"}") >= 1);
            String log = Files.readString(distrustful.process.logFile());
            assertTrue(log.contains("TLS handshake with 127.0.0.1:"), log);
        }
    }

    @Test
    void sluicePresentsItsCertificateToBrokersThatRequireOneTriesTheNextServerPastAFailedHandshakeAndTakesARenewal()
            throws Exception {
        // The first bootstrap server speaks no TLS: every bootstrap connection fails its handshake there first.
        String upstream = "127.0.0.1:" + brokers.cluster.brokerPort(1) + "," + brokers.mutualTlsBootstrap();
        Path files = Files.createTempDirectory("sluice-upstream-identity");
        Path certificate = files.resolve("upstream.crt");
        Path key = files.resolve("upstream.key");
        ca.issue("sluice upstream").write().copyTo(certificate, key);
        List<String> options = new ArrayList<>(List.of(serving()));
        options.addAll(List.of(
                "--kafka-upstream-tls",
                "--upstream-tls-ca",
                ca.certificateFile().toString(),
                "--upstream-tls-cert",
                certificate.toString(),
                "--upstream-tls-key",
                key.toString()));
        try (SluiceForKafka presenting = SluiceForKafka.start(brokers, upstream, options.toArray(String[]::new))) {
            KafkaClients clients = new KafkaClients(presenting.bootstrap(), ssl(false));
            roundTrip(clients);
            String log = logOf(presenting);
            assertTrue(log.contains("failed for Kafka connection from"), "no bootstrap server skipped");
            int nodeServed = log.indexOf("Kafka node 1 served on port");
            assertTrue(
                    nodeServed >= 0 && nodeServed < log.indexOf("Sluice ready"),
                    "nodes not learnt from the next bootstrap server before ready");

            IssuedCertificate renewed = ca.issue("sluice upstream renewed").write();
            renewed.copyTo(certificate, key);
            String presented =
                    "presenting " + renewed.x509().getSubjectX500Principal().getName() + " (serial "
                            + renewed.x509().getSerialNumber().toString(16);
            KafkaClientsIT.await(() -> logOf(presenting).contains(presented), "the renewed certificate taken up");
            roundTrip(clients);
            assertEquals(0, metric(presenting, "sluice_tls_reload_failures_total"));
        }
    }

    @Test
    void aRotatedCertificateReachesNewConnectionsWhileAProducerKeepsSending() throws Exception {
        Path dir = Files.createTempDirectory("kafka-rotation");
        Path certificate = dir.resolve("rotating.crt");
        Path key = dir.resolve("rotating.key");
        sluiceCertificate.copyTo(certificate, key);
        String topic = "rotation-" + UUID.randomUUID();
        try (SluiceForKafka rotating = SluiceForKafka.start(
                brokers,
                brokers.plaintextBootstrap(),
                "--tls-cert",
                certificate.toString(),
                "--tls-key",
                key.toString())) {
            KafkaClients clients = new KafkaClients(rotating.bootstrap(), ssl(false));
            clients.createTopics(3, topic);
            AtomicLong acknowledged = new AtomicLong();
            AtomicLong failed = new AtomicLong();
            AtomicBoolean sending = new AtomicBoolean(true);
            Thread sender;
            try (KafkaProducer<String, String> producer = clients.producer()) {
                sender = new Thread(
                        () -> {
                            for (long i = 0; sending.get(); i++) {
                                producer.send(new ProducerRecord<>(topic, "key-" + i, "record-" + i), (metadata, e) -> {
                                    if (e == null) {
                                        acknowledged.incrementAndGet();
                                    } else {
                                        failed.incrementAndGet();
                                    }
                                });
                                if (i % 100 == 0) {
                                    // A few thousand records a second, all of which the test reads back.
                                    producer.flush();
                                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                                }
                            }
                        },
                        "rotation-sender");
                sender.start();
                awaitAcknowledged(acknowledged, 1_000);
                assertEquals(sluiceCertificate.x509().getSerialNumber(), presentedSerial(rotating.kafkaPort));

                IssuedCertificate renewed = ca.issue("sluice-renewed")
                        .hosts("127.0.0.1", "localhost")
                        .write();
                renewed.copyTo(certificate, key);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (!renewed.x509().getSerialNumber().equals(presentedSerial(rotating.kafkaPort))) {
                    assertTrue(System.nanoTime() < deadline, "the renewed certificate is presented within 10 s");
                    Thread.sleep(50);
                }
                awaitAcknowledged(acknowledged, acknowledged.get() + 1_000);
                sending.set(false);
                sender.join(30_000);
                producer.flush();
            }
            assertEquals(0, failed.get(), "no send failed across the rotation");
            assertEquals(
                    acknowledged.get(),
                    consume(clients, topic, (int) acknowledged.get()).size(),
                    "every acknowledged record is on the topic, once");
        }
    }

    private static void awaitAcknowledged(AtomicLong acknowledged, long atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (acknowledged.get() < atLeast) {
            assertTrue(System.nanoTime() < deadline, "the producer reached " + atLeast + " acknowledged records");
            Thread.sleep(20);
        }
    }

    /** The serial of the certificate Sluice's Kafka port presents to a new connection. */
    private static BigInteger presentedSerial(int port) throws IOException {
        try (SSLSocket socket = (SSLSocket) ClientSslContexts.trusting(ca.certificateFile())
                .getSocketFactory()
                .createSocket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            socket.startHandshake();
            return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
        }
    }

    private static void roundTrip(KafkaClients clients) throws Exception {
        String topic = "tls-" + UUID.randomUUID();
        clients.createTopics(3, topic);
        List<String> sent = new ArrayList<>();
        try (KafkaProducer<String, String> producer = clients.producer()) {
            for (int i = 0; i < 100; i++) {
                String value = "record-" + i;
                sent.add(value);
                producer.send(new ProducerRecord<>(topic, "key", value));
            }
            producer.flush();
        }
        assertEquals(sent, consume(clients, topic, sent.size()));
    }

    private static List<String> consume(KafkaClients clients, String topic, int count) {
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = clients.consumer("group.id", "g-" + UUID.randomUUID())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (values.size() < count && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    values.add(record.value());
                }
            }
        }
        return values;
    }

    /** Client settings for SSL to Sluice, trusting the test CA (as PEM), with a certificate of its own or not. */
    private static Map<String, String> ssl(boolean withCertificate) {
        Map<String, String> settings = new HashMap<>(Map.of(
                CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL",
                SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM",
                SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, ca.certificateFile().toString()));
        if (withCertificate) {
            settings.put(SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, "PEM");
            settings.put(SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, clientIdentity.toString());
        }
        return settings;
    }

    /** An ApiVersions v0 request, as a plaintext client opens with. */
    private static byte[] apiVersionsRequest() {
        byte[] clientId = "plain".getBytes(StandardCharsets.UTF_8);
        ByteBuffer body = ByteBuffer.allocate(2 + 2 + 4 + 2 + clientId.length);
        body.putShort((short) 18)
                .putShort((short) 0)
                .putInt(7)
                .putShort((short) clientId.length)
                .put(clientId);
        return ByteBuffer.allocate(4 + body.capacity())
                .putInt(body.capacity())
                .put(body.array())
                .array();
    }

    /** The peer closed the connection; whatever it sent first (a TLS alert) is no Kafka response. */
    private static void assertClosedWithoutAKafkaAnswer(InputStream in) throws IOException {
        byte[] buffer = new byte[1024];
        int total = 0;
        try {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                total += n;
                assertTrue(total < 64, "more than a TLS alert came back");
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("Sluice kept a plaintext peer's connection open on its TLS port", e);
        } catch (IOException reset) {
            // A reset is a close too.
        }
    }

    private static String logOf(SluiceForKafka sluice) {
        try {
            return Files.readString(sluice.process.logFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One sample of Sluice's metrics, read over HTTPS (the admin port speaks TLS with --tls-cert). */
    private static double metric(SluiceForKafka sluice, String series) {
        try {
            HttpClient http = HttpClient.newBuilder()
                    .sslContext(ClientSslContexts.trusting(ca.certificateFile()))
                    .build();
            return SluiceForKafka.sample(
                    http.send(
                                    HttpRequest.newBuilder(
                                                    URI.create("https://127.0.0.1:" + sluice.adminPort + "/metrics"))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString())
                            .body(),
                    series);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
