package io.sluice.server.it;

import io.sluice.cli.AdminCli;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.relay.tls.TlsHandshakeWatch;
import io.sluice.server.TlsConfig;
import io.sluice.testkit.pulsar.PulsarBroker;
import io.sluice.testkit.tls.CertificateAuthority;
import io.sluice.testkit.tls.CertificateAuthority.IssuedCertificate;
import io.sluice.testkit.tls.ClientSslContexts;
import org.apache.pulsar.client.api.AuthenticationFactory;
import org.apache.pulsar.client.api.ClientBuilder;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;
import org.apache.pulsar.client.api.SubscriptionInitialPosition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real TLS end to end: the stock Pulsar client over {@code pulsar+ssl://} through Sluice in both
 * lookup modes, to a real Pulsar 4.0.7 broker with its TLS listener, with Sluice speaking plaintext
 * or TLS to the broker, which requires Sluice's client certificate (rotated in without a restart);
 * mutual TLS accepted and refused; a certificate rotated while a producer
 * keeps sending; the admin port over HTTPS with its token rotated through a file; and hostile
 * peers: a plaintext client on the TLS port, a silent one, a broker with a certificate for another
 * host or an expired one.
 */
class TlsIT {

    @TempDir
    static Path dir;

    private static CertificateAuthority ca;
    private static CertificateAuthority clientCa;
    private static IssuedCertificate sluiceCertificate;
    /** What Sluice presents to the broker's TLS port, which requires a client certificate of {@link #ca}. */
    private static IssuedCertificate upstreamCertificate;

    private static PulsarBroker broker;
    /** TLS connections the test opened itself only to see Sluice's certificate. */
    private static final AtomicLong PROBES = new AtomicLong();

    @BeforeAll
    static void startBroker() {
        ca = CertificateAuthority.create(dir, "TLS IT CA");
        clientCa = CertificateAuthority.create(dir, "TLS IT client CA");
        sluiceCertificate = ca.issue("sluice")
                .hosts("localhost", "127.0.0.1")
                .keyEncoding(CertificateAuthority.KeyEncoding.TRADITIONAL)
                .write();
        IssuedCertificate brokerCertificate =
                ca.issue("broker").hosts("localhost", "127.0.0.1").write();
        broker = PulsarBroker.builder()
                .sidecarListener()
                .tls(brokerCertificate.certificate(), brokerCertificate.key(), ca.certificateFile())
                .config("tlsRequireTrustedClientCertOnConnect", "true")
                .start();
        upstreamCertificate = ca.issue("sluice upstream").write();
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void aPulsarSslClientThroughAFrontProxyToThePlainBrokerPort() throws Exception {
        try (Running sluice = new Running(TlsSluice.in("127.0.0.1", broker.brokerPort())
                        .tls(serving(null))
                        .start());
                PulsarClient client = tlsClient(sluice.port(), null).build()) {
            roundTrip(client, "front-tls-to-plain");
        }
    }

    @Test
    void tlsOnBothLegsInFrontProxyMode() throws Exception {
        try (Running sluice = new Running(TlsSluice.in("127.0.0.1", broker.tlsPort())
                        .tls(new TlsConfig(
                                sluiceCertificate.certificate(),
                                sluiceCertificate.key(),
                                null,
                                ca.certificateFile(),
                                upstreamCertificate.certificate(),
                                upstreamCertificate.key()))
                        .upstreamTls()
                        .start());
                PulsarClient client = tlsClient(sluice.port(), null).build()) {
            roundTrip(client, "front-tls-to-tls");
        }
    }

    @Test
    void aPlaintextClientStillReachesTheBrokersTlsPortThroughSluice() throws Exception {
        try (Running sluice = new Running(TlsSluice.in("127.0.0.1", broker.tlsPort())
                        .tls(presenting(upstreamCertificate.certificate(), upstreamCertificate.key()))
                        .upstreamTls()
                        .start());
                PulsarClient client = plainClient(sluice.port(), 30)) {
            roundTrip(client, "front-plain-to-tls");
        }
    }

    @Test
    void aBrokerRequiringClientCertificatesRefusesSluiceUntilATrustedOneIsRotatedIn() throws Exception {
        Path certificate = dir.resolve("upstream-rotating.crt");
        Path key = dir.resolve("upstream-rotating.key");
        clientCa.issue("sluice upstream the broker does not trust").write().copyTo(certificate, key);
        try (Running sluice = new Running(TlsSluice.in("127.0.0.1", broker.tlsPort())
                .tls(presenting(certificate, key))
                .upstreamTls()
                .start())) {
            try (PulsarClient refused = plainClient(sluice.port(), 3)) {
                assertThrows(
                        PulsarClientException.class,
                        () -> refused.newProducer()
                                .topic(topic("untrusted-upstream"))
                                .create());
            }

            upstreamCertificate.copyTo(certificate, key);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (true) {
                try (PulsarClient client = plainClient(sluice.port(), 3)) {
                    roundTrip(client, "rotated-upstream");
                    break;
                } catch (PulsarClientException stillTheOldCertificate) {
                    assertTrue(System.nanoTime() < deadline, "the trusted certificate taken up within 20 s");
                }
            }
            assertEquals(0, sluice.server.stats().tlsReloadFailures());
        }
    }

    /** Plaintext ports, TLS to the broker trusting {@link #ca} and presenting {@code certificate}. */
    private static TlsConfig presenting(Path certificate, Path key) {
        return new TlsConfig(null, null, null, ca.certificateFile(), certificate, key);
    }

    private static PulsarClient plainClient(int port, int timeoutSeconds) throws PulsarClientException {
        return PulsarClient.builder()
                .serviceUrl("pulsar://127.0.0.1:" + port)
                .operationTimeout(timeoutSeconds, TimeUnit.SECONDS)
                .build();
    }

    @Test
    void aPulsarSslClientThroughASidecar() throws Exception {
        try (Running sluice = new Running(TlsSluice.in("127.0.0.1", broker.externalBindPort())
                        .listen(broker.sidecarTlsPort())
                        .passthrough()
                        .tls(serving(null))
                        .start());
                PulsarClient client = tlsClient(sluice.port(), null).build()) {
            roundTrip(client, "sidecar-tls");
        }
    }

    @Test
    void mutualTlsAdmitsClientsOfTheClientCaOnly() throws Exception {
        IssuedCertificate client = clientCa.issue("client").write();
        IssuedCertificate otherHost = clientCa.issue("client for another host")
                .hosts("elsewhere.example")
                .write();
        IssuedCertificate expired = clientCa.issue("expired client")
                .validUntil(Instant.now().minusSeconds(60))
                .write();
        IssuedCertificate stranger = ca.issue("stranger").hosts("127.0.0.1").write();
        try (Running sluice = new Running(TlsSluice.in("127.0.0.1", broker.brokerPort())
                .tls(serving(clientCa.certificateFile()))
                .start())) {
            try (PulsarClient admitted = tlsClient(sluice.port(), client).build()) {
                roundTrip(admitted, "mtls-admitted");
            }
            // Names in a client certificate are not checked: the CA vouches for the client.
            try (PulsarClient admitted = tlsClient(sluice.port(), otherHost).build()) {
                roundTrip(admitted, "mtls-other-host");
            }
            for (IssuedCertificate refused : new IssuedCertificate[] {null, expired, stranger}) {
                try (PulsarClient c = tlsClient(sluice.port(), refused)
                        .operationTimeout(3, TimeUnit.SECONDS)
                        .build()) {
                    assertThrows(
                            PulsarClientException.class,
                            () -> c.newProducer().topic(topic("mtls-refused")).create(),
                            "refused: "
                                    + (refused == null
                                            ? "no certificate"
                                            : refused.x509().getSubjectX500Principal()));
                }
            }
            assertTrue(sluice.protocolErrors(TlsHandshakeWatch.REASON) >= 3);
        }
    }

    @Test
    void aClientCertificatesCommonNameIsItsRoleUnderTlsAuthentication() throws Exception {
        IssuedCertificate aliceCertificate =
                clientCa.issue("alice").subject("CN=alice,OU=Apps,O=Sluice").write();
        IssuedCertificate bobCertificate = clientCa.issue("bob").write();
        double aliceLimit = 50;
        try (Running sluice = new Running(TlsSluice.in("127.0.0.1", broker.brokerPort())
                        .tls(serving(clientCa.certificateFile()))
                        .start());
                PulsarClient alice = tlsAuthenticated(sluice.port(), aliceCertificate);
                PulsarClient bob = tlsAuthenticated(sluice.port(), bobCertificate)) {
            RoleFloods.aliceIsHeldWhileBobIsNot(
                    sluice.server(),
                    alice,
                    bob,
                    topic("cn-alice"),
                    topic("cn-bob"),
                    aliceLimit,
                    "[tls] CN=alice,OU=Apps,O=Sluice and CN=bob");
        }
    }

    @Test
    void aRotatedCertificateReachesNewConnectionsWhileAProducerKeepsSending() throws Exception {
        Path certificate = dir.resolve("rotating.crt");
        Path key = dir.resolve("rotating.key");
        sluiceCertificate.copyTo(certificate, key);
        String topic = topic("rotation");
        try (Running sluice = new Running(TlsSluice.in("127.0.0.1", broker.brokerPort())
                        .tls(new TlsConfig(certificate, key, null, null, null, null))
                        .start());
                PulsarClient client = tlsClient(sluice.port(), null).build();
                Consumer<byte[]> consumer = client.newConsumer()
                        .topic(topic)
                        .subscriptionName("rotation")
                        .subscriptionInitialPosition(SubscriptionInitialPosition.Earliest)
                        .subscribe();
                Producer<byte[]> producer =
                        client.newProducer().topic(topic).enableBatching(false).create()) {
            AtomicLong sent = new AtomicLong();
            AtomicLong failed = new AtomicLong();
            Thread sender = new Thread(
                    () -> {
                        while (!Thread.currentThread().isInterrupted()) {
                            try {
                                producer.send(("message " + sent.get()).getBytes(StandardCharsets.UTF_8));
                                sent.incrementAndGet();
                            } catch (PulsarClientException e) {
                                if (Thread.currentThread().isInterrupted()
                                        || e.getCause() instanceof InterruptedException) {
                                    return;
                                }
                                failed.incrementAndGet();
                            }
                        }
                    },
                    "rotation-sender");
            sender.start();
            await(() -> sent.get() > 100, "the producer sends");
            long acceptedBefore = sluice.server.stats().acceptedConnections();
            long probesBefore = PROBES.get();
            assertEquals(sluiceCertificate.x509().getSerialNumber(), sluice.presentedSerial());

            IssuedCertificate renewed = ca.issue("sluice renewed")
                    .hosts("localhost", "127.0.0.1")
                    .rsa()
                    .keyEncoding(CertificateAuthority.KeyEncoding.TRADITIONAL)
                    .write();
            renewed.copyTo(certificate, key);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!renewed.x509().getSerialNumber().equals(sluice.presentedSerial())) {
                assertTrue(System.nanoTime() < deadline, "the renewed certificate is presented within 10 s");
                Thread.sleep(50);
            }
            Files.writeString(key, "-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n");
            await(() -> sluice.server.stats().tlsReloadFailures() == 1, "the unusable key counted");
            assertEquals(renewed.x509().getSerialNumber(), sluice.presentedSerial(), "the renewed certificate stays");
            long sentAtRotation = sent.get();
            await(() -> sent.get() > sentAtRotation + 100, "the producer keeps sending");
            sender.interrupt();
            sender.join(10_000);

            assertEquals(0, failed.get(), "no send failed");
            assertEquals(
                    acceptedBefore + PROBES.get() - probesBefore,
                    sluice.server.stats().acceptedConnections(),
                    "no connection but the probes' was opened: the producer's was never dropped");
            for (long i = 0; i < sent.get(); i++) {
                Message<byte[]> message = consumer.receive(30, TimeUnit.SECONDS);
                assertTrue(message != null, "message " + i + " of " + sent.get() + " arrived");
                consumer.acknowledge(message);
            }
            assertTrue(sluice.metrics().contains("sluice_tls_reload_failures_total 1.0"));
        }
    }

    @Test
    void theAdminPortSpeaksHttpsAndItsTokenRotatesThroughItsFile() throws Exception {
        Path tokenFile = Files.writeString(dir.resolve("admin-token"), "first-secret\n");
        // Named for the Service only, as in a cluster: the CLI beside it dials 127.0.0.1.
        IssuedCertificate serviceOnly =
                ca.issue("sluice service").hosts("localhost").write();
        try (Running sluice = new Running(TlsSluice.in("127.0.0.1", broker.brokerPort())
                .tls(new TlsConfig(
                        serviceOnly.certificate(), serviceOnly.key(), clientCa.certificateFile(), null, null, null))
                .adminTokenFile(tokenFile)
                .start())) {
            HttpClient https = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .sslContext(ClientSslContexts.trusting(ca.certificateFile()))
                    .build();
            assertEquals(
                    200,
                    sluice.admin(https, "/readyz", null).statusCode(),
                    "probes need no client certificate even with --tls-client-ca");
            assertEquals(
                    200, sluice.admin(https, "/api/v1/limits", "first-secret").statusCode());
            assertEquals(
                    401, sluice.admin(https, "/api/v1/limits", "second-secret").statusCode());
            Files.writeString(tokenFile, "second-secret\n");
            await(
                    () -> sluice.adminStatus(https, "/api/v1/limits", "second-secret") == 200,
                    "the rotated token in force");
            assertEquals(
                    401, sluice.admin(https, "/api/v1/limits", "first-secret").statusCode(), "the old token is out");

            Map<String, String> container = Map.of(
                    "SLUICE_ADMIN",
                    "0.0.0.0:" + sluice.server.adminPort(),
                    "SLUICE_TLS_CERT",
                    serviceOnly.certificate().toString(),
                    "SLUICE_ADMIN_TOKEN_FILE",
                    tokenFile.toString());
            assertEquals(
                    AdminCli.OK, cli(container, "limits", "list"), "the CLI in the server's container needs no option");
            Map<String, String> outside = Map.of(
                    "SLUICE_URL",
                    "https://localhost:" + sluice.server.adminPort(),
                    "SLUICE_CA_FILE",
                    ca.certificateFile().toString(),
                    "SLUICE_TOKEN_FILE",
                    tokenFile.toString());
            assertEquals(AdminCli.OK, cli(outside, "limits", "list"), "from elsewhere, with the CA");
            assertEquals(
                    AdminCli.UNREACHABLE,
                    cli(
                            Map.of(
                                    "SLUICE_URL",
                                    "https://localhost:" + sluice.server.adminPort(),
                                    "SLUICE_TOKEN_FILE",
                                    tokenFile.toString()),
                            "limits",
                            "list"),
                    "the JVM's trust store knows no test CA");
        }
    }

    private static int cli(Map<String, String> env, String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = AdminCli.run(
                args,
                env,
                InputStream.nullInputStream(),
                new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err),
                Clock.systemUTC());
        if (exit != AdminCli.OK) {
            System.out.println("sluice " + String.join(" ", args) + ": " + err.toString(StandardCharsets.UTF_8));
        }
        return exit;
    }

    @Test
    void aPlaintextClientOnTheTlsPortIsClosedAndNothingElseIsTouched() throws Exception {
        try (Running sluice = new Running(TlsSluice.in("127.0.0.1", broker.brokerPort())
                        .tls(serving(null))
                        .start());
                PulsarClient client = tlsClient(sluice.port(), null).build();
                Producer<byte[]> producer =
                        client.newProducer().topic(topic("plaintext-neighbour")).create()) {
            producer.send("before".getBytes(StandardCharsets.UTF_8));
            try (RawPulsarClient plaintext = new RawPulsarClient(sluice.port())) {
                plaintext.write(RawPulsarClient.connectFrame());
                assertTrue(plaintext.closedByPeer());
            }
            await(() -> sluice.protocolErrors(TlsHandshakeWatch.REASON) == 1, "the failed handshake counted");
            producer.send("after".getBytes(StandardCharsets.UTF_8));
            assertTrue(producer.isConnected(), "the TLS producer beside it kept its connection");
        }
    }

    @Test
    void aClientThatNeverFinishesTheTlsHandshakeIsCutOffByTheHandshakeTimeout() throws Exception {
        try (Running sluice = new Running(TlsSluice.in("127.0.0.1", broker.brokerPort())
                        .tls(serving(null))
                        .handshakeTimeout(Duration.ofSeconds(1))
                        .start());
                Socket silent = new Socket("127.0.0.1", sluice.port())) {
            silent.setSoTimeout(10_000);
            silent.getOutputStream().write(new byte[] {0x16, 0x03, 0x01}); // the first bytes of a ClientHello
            long start = System.nanoTime();
            assertEquals(-1, silent.getInputStream().read());
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5));
            await(() -> sluice.protocolErrors("handshake_timeout") == 1, "counted as a handshake timeout");
        }
    }

    @Test
    void aBrokerWithACertificateForAnotherHostOrAnExpiredOneIsRefused() throws Exception {
        IssuedCertificate wrongHost =
                ca.issue("broker for another host").hosts("elsewhere.example").write();
        IssuedCertificate expired = ca.issue("expired broker")
                .hosts("127.0.0.1")
                .validUntil(Instant.now().minusSeconds(60))
                .write();
        for (IssuedCertificate presented : new IssuedCertificate[] {wrongHost, expired}) {
            try (TlsBrokerImpostor impostor = new TlsBrokerImpostor(presented);
                    Running sluice = new Running(TlsSluice.in("127.0.0.1", impostor.port())
                            .tls(new TlsConfig(null, null, null, ca.certificateFile(), null, null))
                            .upstreamTls()
                            .start());
                    RawPulsarClient client = new RawPulsarClient(sluice.port())) {
                BaseCommand answer = client.connect();
                assertEquals(BaseCommand.Type.ERROR, answer.getType());
                assertTrue(
                        answer.getError().getMessage().startsWith("Sluice cannot reach broker")
                                && answer.getError().getMessage().contains("TLS handshake failed"),
                        answer.getError().getMessage());
                assertEquals(1, sluice.server.stats().upstreamConnectFailures());
            }
        }
    }

    private static TlsConfig serving(Path clientCaFile) {
        return new TlsConfig(sluiceCertificate.certificate(), sluiceCertificate.key(), clientCaFile, null, null, null);
    }

    private static ClientBuilder tlsClient(int port, IssuedCertificate identity) {
        ClientBuilder builder = PulsarClient.builder()
                .serviceUrl("pulsar+ssl://127.0.0.1:" + port)
                .tlsTrustCertsFilePath(ca.certificateFile().toString())
                .enableTlsHostnameVerification(true)
                .operationTimeout(30, TimeUnit.SECONDS);
        if (identity != null) {
            builder.tlsCertificateFilePath(identity.certificate().toString())
                    .tlsKeyFilePath(identity.key().toString());
        }
        return builder;
    }

    /** A client presenting {@code identity} through Pulsar's TLS authentication ({@code tls} in its CONNECT). */
    private static PulsarClient tlsAuthenticated(int port, IssuedCertificate identity) throws PulsarClientException {
        return PulsarClient.builder()
                .serviceUrl("pulsar+ssl://127.0.0.1:" + port)
                .tlsTrustCertsFilePath(ca.certificateFile().toString())
                .authentication(AuthenticationFactory.TLS(
                        identity.certificate().toString(), identity.key().toString()))
                .operationTimeout(30, TimeUnit.SECONDS)
                .build();
    }

    private static void roundTrip(PulsarClient client, String name) throws Exception {
        String topic = topic(name);
        try (Consumer<byte[]> consumer = client.newConsumer()
                        .topic(topic)
                        .subscriptionName("it")
                        .subscriptionInitialPosition(SubscriptionInitialPosition.Earliest)
                        .subscribe();
                Producer<byte[]> producer = client.newProducer().topic(topic).create()) {
            for (int i = 0; i < 20; i++) {
                producer.send(("message " + i).getBytes(StandardCharsets.UTF_8));
            }
            for (int i = 0; i < 20; i++) {
                Message<byte[]> message = consumer.receive(30, TimeUnit.SECONDS);
                assertEquals("message " + i, new String(message.getValue(), StandardCharsets.UTF_8));
                consumer.acknowledge(message);
            }
        }
    }

    private static String topic(String name) {
        return "persistent://public/default/tls-" + name + "-" + System.nanoTime();
    }

    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "not within 20 s: " + what);
            Thread.sleep(20);
        }
    }

    /** A Sluice of this test, with what the test reads of it. */
    private record Running(PulsarSluice server) implements AutoCloseable {

        int port() {
            return server.proxyPort();
        }

        /** The serial of the certificate a new TLS connection to the Pulsar port is shown. */
        BigInteger presentedSerial() throws IOException {
            PROBES.incrementAndGet();
            try (SSLSocket socket = (SSLSocket) ClientSslContexts.trusting(ca.certificateFile())
                    .getSocketFactory()
                    .createSocket("127.0.0.1", port())) {
                socket.setSoTimeout(10_000);
                socket.startHandshake();
                return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
            }
        }

        long protocolErrors(String reason) {
            return server.stats().protocolErrors().getOrDefault(reason, 0L);
        }

        String metrics() throws Exception {
            HttpClient https = HttpClient.newBuilder()
                    .sslContext(ClientSslContexts.trusting(ca.certificateFile()))
                    .build();
            return admin(https, "/metrics", null).body();
        }

        HttpResponse<String> admin(HttpClient client, String path, String token) throws Exception {
            HttpRequest.Builder request = HttpRequest.newBuilder(
                            URI.create("https://localhost:" + server.adminPort() + path))
                    .timeout(Duration.ofSeconds(10));
            if (token != null) {
                request.header("Authorization", "Bearer " + token);
            }
            return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }

        int adminStatus(HttpClient client, String path, String token) {
            try {
                return admin(client, path, token).statusCode();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void close() {
            server.close();
        }
    }

    /** A TLS server presenting a given certificate where Sluice expects a broker; it never gets past the handshake. */
    private static final class TlsBrokerImpostor implements AutoCloseable {
        private final SSLServerSocket listener;
        private final Thread acceptor;

        TlsBrokerImpostor(IssuedCertificate presented) throws IOException {
            listener = (SSLServerSocket) ClientSslContexts.trusting(ca.certificateFile(), presented)
                    .getServerSocketFactory()
                    .createServerSocket(0, 50, InetAddress.getLoopbackAddress());
            acceptor = new Thread(
                    () -> {
                        while (!listener.isClosed()) {
                            try (SSLSocket socket = (SSLSocket) listener.accept()) {
                                socket.setSoTimeout(5_000);
                                socket.startHandshake();
                            } catch (IOException refusedOrClosed) {
                                // Sluice refuses the certificate; the next connection, or the end.
                            }
                        }
                    },
                    "tls-broker-impostor");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return listener.getLocalPort();
        }

        @Override
        public void close() throws IOException {
            listener.close();
        }
    }
}
