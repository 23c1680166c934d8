package io.sluice.relay.tls;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.ReferenceCountUtil;
import io.sluice.relay.ProxyStats;
import io.sluice.testing.LeakCheck;
import io.sluice.testkit.tls.CertificateAuthority;
import io.sluice.testkit.tls.CertificateAuthority.IssuedCertificate;
import io.sluice.testkit.tls.ClientSslContexts;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A server context from PEM files on both TLS implementations, with real handshakes from the
 * JDK's client: it serves its certificate over TLS 1.3 and 1.2 only, takes a rotated certificate
 * for new connections while open ones carry on, keeps its certificate when the new files are bad,
 * admits only clients of the client CA when asked to, and closes a client that does not speak
 * TLS without anything behind the handshake seeing it.
 */
@ExtendWith(LeakCheck.class)
class ServerTlsTest {

    @TempDir
    Path dir;

    private final ProxyStats stats = new ProxyStats("pulsar");
    private CertificateAuthority ca;
    private IssuedCertificate first;
    private Path certificate;
    private Path key;
    private SSLContext trustingClient;

    @BeforeEach
    void issue() {
        ca = CertificateAuthority.create(dir, "server test CA");
        first = ca.issue("first").hosts("localhost", "127.0.0.1").write();
        certificate = dir.resolve("tls.crt");
        key = dir.resolve("tls.key");
        first.copyTo(certificate, key);
        trustingClient = ClientSslContexts.trusting(ca.certificateFile());
    }

    @Test
    void openSslLoadsOnThisPlatformAndIsWhatSluiceUses() {
        assertTrue(OpenSsl.isAvailable(), () -> "netty-tcnative did not load: " + OpenSsl.unavailabilityCause());
        assertEquals(SslProvider.OPENSSL, TlsProvider.get());
        assertTrue(TlsProvider.describe().startsWith("OpenSSL"), TlsProvider.describe());
    }

    @ParameterizedTest
    @EnumSource(
            value = SslProvider.class,
            names = {"OPENSSL", "JDK"})
    void servesItsCertificateOverTls13And12Only(SslProvider provider) throws Exception {
        ReloadingSslContext tls = load(new ServerTlsFiles(certificate, key, null), provider);
        SSLEngine engine = tls.current().newEngine(ByteBufAllocator.DEFAULT);
        try {
            // OpenSSL's engine also lists SSLv2Hello, a hello format BoringSSL never accepts, not a protocol.
            assertEquals(
                    List.of("TLSv1.2", "TLSv1.3"),
                    List.of(engine.getEnabledProtocols()).stream()
                            .filter(p -> !p.equals("SSLv2Hello"))
                            .sorted()
                            .toList());
        } finally {
            ReferenceCountUtil.release(engine);
        }
        try (TlsEchoServer server = new TlsEchoServer(tls);
                TlsClient v13 = new TlsClient(trustingClient, server.port(), "TLSv1.3");
                TlsClient v12 = new TlsClient(trustingClient, server.port(), "TLSv1.2")) {
            assertEquals(first.x509().getSerialNumber(), v13.serverSerial());
            assertEquals("TLSv1.3", v13.protocol());
            assertTrue(v13.echoes("over TLS 1.3"));
            assertEquals("TLSv1.2", v12.protocol());
            assertTrue(v12.echoes("over TLS 1.2"));
            assertEquals(0, server.failedHandshakes.get());
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = SslProvider.class,
            names = {"OPENSSL", "JDK"})
    void aRotatedCertificateReachesNewConnectionsWhileOpenOnesCarryOn(SslProvider provider) throws Exception {
        ReloadingSslContext tls = load(new ServerTlsFiles(certificate, key, null), provider);
        try (TlsEchoServer server = new TlsEchoServer(tls);
                TlsClient before = new TlsClient(trustingClient, server.port())) {
            assertTrue(before.echoes("before"));
            IssuedCertificate renewed =
                    ca.issue("renewed").hosts("localhost", "127.0.0.1").rsa().write();
            renewed.copyTo(certificate, key);
            assertTrue(tls.reload());
            try (TlsClient after = new TlsClient(trustingClient, server.port())) {
                assertEquals(renewed.x509().getSerialNumber(), after.serverSerial());
                assertTrue(after.echoes("after"));
            }
            assertTrue(before.echoes("still open"));
            assertEquals(first.x509().getSerialNumber(), before.serverSerial());
            assertEquals(0, stats.tlsReloadFailures());
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = SslProvider.class,
            names = {"OPENSSL", "JDK"})
    void newFilesThatCannotBeUsedKeepTheCurrentCertificateAndAreCounted(SslProvider provider) throws Exception {
        ReloadingSslContext tls = load(new ServerTlsFiles(certificate, key, null), provider);
        try (TlsEchoServer server = new TlsEchoServer(tls)) {
            Files.writeString(key, "half a key");
            assertFalse(tls.reload());
            IssuedCertificate renewed = ca.issue("renewed").hosts("127.0.0.1").write();
            Files.copy(first.key(), key, StandardCopyOption.REPLACE_EXISTING);
            Files.copy(renewed.certificate(), certificate, StandardCopyOption.REPLACE_EXISTING);
            assertFalse(tls.reload(), "the new certificate with the old key");
            ca.issue("expired")
                    .hosts("127.0.0.1")
                    .validUntil(Instant.now().minusSeconds(60))
                    .write()
                    .copyTo(certificate, key);
            assertFalse(tls.reload(), "an expired certificate");
            assertEquals(3, stats.tlsReloadFailures());
            try (TlsClient client = new TlsClient(trustingClient, server.port())) {
                assertEquals(first.x509().getSerialNumber(), client.serverSerial());
                assertTrue(client.echoes("served by the first certificate"));
            }
        }
    }

    @Test
    void filesThatCannotBeUsedStopTheFirstLoad() {
        IssuedCertificate other = ca.issue("other").hosts("127.0.0.1").write();
        TlsFileException mismatch = assertThrows(
                TlsFileException.class,
                () -> load(new ServerTlsFiles(first.certificate(), other.key(), null), SslProvider.JDK));
        assertEquals(other.key(), mismatch.file());
        assertTrue(mismatch.getMessage().contains("does not belong to the certificate"), mismatch.getMessage());
        IssuedCertificate expired =
                ca.issue("expired").validUntil(Instant.now().minusSeconds(60)).write();
        TlsFileException old = assertThrows(
                TlsFileException.class,
                () -> load(new ServerTlsFiles(expired.certificate(), expired.key(), null), SslProvider.JDK));
        assertTrue(old.getMessage().contains("expired on"), old.getMessage());
        assertThrows(
                TlsFileException.class,
                () -> load(new ServerTlsFiles(certificate, key, dir.resolve("no-such-ca.crt")), SslProvider.JDK));
    }

    @ParameterizedTest
    @EnumSource(
            value = SslProvider.class,
            names = {"OPENSSL", "JDK"})
    void mutualTlsAdmitsOnlyClientsWithACurrentCertificateOfTheClientCa(SslProvider provider) throws Exception {
        CertificateAuthority clientCa = CertificateAuthority.create(dir, "client CA");
        CertificateAuthority strangers = CertificateAuthority.create(dir, "stranger CA");
        ReloadingSslContext tls = load(new ServerTlsFiles(certificate, key, clientCa.certificateFile()), provider);
        IssuedCertificate client = clientCa.issue("client").write();
        IssuedCertificate expired = clientCa.issue("expired client")
                .validUntil(Instant.now().minusSeconds(60))
                .write();
        IssuedCertificate stranger = strangers.issue("stranger").write();
        try (TlsEchoServer server = new TlsEchoServer(tls)) {
            try (TlsClient admitted =
                    new TlsClient(ClientSslContexts.trusting(ca.certificateFile(), client), server.port())) {
                assertTrue(admitted.echoes("with a client certificate"));
            }
            for (SSLContext refused : List.of(
                    trustingClient,
                    ClientSslContexts.trusting(ca.certificateFile(), expired),
                    ClientSslContexts.trusting(ca.certificateFile(), stranger))) {
                try (TlsClient c = new TlsClient(refused, server.port())) {
                    assertFalse(c.echoes("refused"));
                }
            }
            await(() -> server.failedHandshakes.get() == 3, "three refused handshakes counted");
            assertEquals(List.of(), server.errorsBehind);
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = SslProvider.class,
            names = {"OPENSSL", "JDK"})
    void aClientThatDoesNotSpeakTlsIsClosedAndNothingBehindTheHandshakeSeesIt(SslProvider provider) throws Exception {
        ReloadingSslContext tls = load(new ServerTlsFiles(certificate, key, null), provider);
        try (TlsEchoServer server = new TlsEchoServer(tls)) {
            byte[] plaintext =
                    "\u0000\u0000\u0000\u0020CONNECT auth_data=secret-token".getBytes(StandardCharsets.ISO_8859_1);
            assertTrue(TlsClient.closedAfterSending(server.port(), plaintext));
            await(() -> server.failedHandshakes.get() == 1, "the failed handshake counted");
            assertEquals(List.of(), server.errorsBehind);
            try (TlsClient client = new TlsClient(trustingClient, server.port())) {
                assertTrue(client.echoes("others unaffected"));
            }
        }
    }

    private ReloadingSslContext load(TlsSource source, SslProvider provider) {
        return ReloadingSslContext.load("the test port", source, provider, stats::tlsReloadFailed);
    }

    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 10 s: " + what);
            }
            Thread.sleep(10);
        }
    }
}
