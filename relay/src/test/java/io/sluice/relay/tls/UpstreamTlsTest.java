package io.sluice.relay.tls;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.concurrent.Future;
import io.sluice.relay.ProxyStats;
import io.sluice.testing.LeakCheck;
import io.sluice.testkit.tls.CertificateAuthority;
import io.sluice.testkit.tls.CertificateAuthority.IssuedCertificate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import javax.net.ssl.SSLException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The upstream side on both TLS implementations: a broker's certificate must chain to the CA
 * file (or the JDK's trust store) and name the host dialled; an expired one, one of another CA
 * or one for another host is refused in the handshake; a new CA file is used from the next
 * connection on.
 */
@ExtendWith(LeakCheck.class)
class UpstreamTlsTest {

    @TempDir
    Path dir;

    private final ProxyStats stats = new ProxyStats("pulsar");
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private CertificateAuthority ca;

    @BeforeEach
    void issue() {
        ca = CertificateAuthority.create(dir, "broker CA");
    }

    @AfterEach
    void stop() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @ParameterizedTest
    @EnumSource(
            value = SslProvider.class,
            names = {"OPENSSL", "JDK"})
    void aBrokerOfTheCaNamingTheHostDialledIsAcceptedAndNoOtherIs(SslProvider provider) throws Exception {
        ReloadingSslContext upstream = ReloadingSslContext.load(
                "upstream", new UpstreamTlsFiles(ca.certificateFile()), provider, stats::tlsReloadFailed);
        assertNull(handshake(
                upstream, ca.issue("broker").hosts("broker.test", "127.0.0.1").write()));
        assertTrue(refusal(handshake(
                        upstream, ca.issue("other host").hosts("wrong.example").write()))
                .matches("(?is).*(subject alternative|no name|hostname|certificate_unknown|No subject).*"));
        assertTrue(
                handshake(
                                upstream,
                                ca.issue("expired")
                                        .hosts("127.0.0.1")
                                        .validUntil(Instant.now().minusSeconds(60))
                                        .write())
                        != null,
                "an expired certificate is refused");
        CertificateAuthority other = CertificateAuthority.create(dir, "other CA");
        assertTrue(
                handshake(upstream, other.issue("stranger").hosts("127.0.0.1").write()) != null,
                "a certificate of another CA is refused");
        ReloadingSslContext jdkTrust =
                ReloadingSslContext.load("upstream", new UpstreamTlsFiles(null), provider, stats::tlsReloadFailed);
        assertTrue(
                handshake(jdkTrust, ca.issue("private").hosts("127.0.0.1").write()) != null,
                "the JDK's trust store does not know a private CA");
    }

    @ParameterizedTest
    @EnumSource(
            value = SslProvider.class,
            names = {"OPENSSL", "JDK"})
    void aRotatedCaFileIsTrustedFromTheNextConnectionOn(SslProvider provider) throws Exception {
        Path caFile = dir.resolve("ca.crt");
        Files.copy(ca.certificateFile(), caFile);
        ReloadingSslContext upstream =
                ReloadingSslContext.load("upstream", new UpstreamTlsFiles(caFile), provider, stats::tlsReloadFailed);
        CertificateAuthority next = CertificateAuthority.create(dir, "next CA");
        IssuedCertificate renewed =
                next.issue("renewed broker").hosts("127.0.0.1").write();
        assertTrue(handshake(upstream, renewed) != null);
        Files.writeString(caFile, Files.readString(ca.certificateFile()) + Files.readString(next.certificateFile()));
        assertTrue(upstream.reload());
        assertNull(handshake(upstream, renewed));
        Files.writeString(caFile, "not a CA");
        assertFalse(upstream.reload());
        assertEquals(1, stats.tlsReloadFailures());
        assertNull(handshake(upstream, renewed), "the bundle in use is kept");
        Files.copy(ca.certificateFile(), caFile, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Connects to a server presenting {@code broker}; null when the handshake succeeds, else why it failed. */
    private Throwable handshake(ReloadingSslContext upstream, IssuedCertificate broker) throws Exception {
        // The server builds its context straight from the files, so it can present an expired one.
        TlsSource presentAsIs = new TlsSource() {
            @Override
            public Built build(SslProvider provider) {
                try {
                    return new Built(
                            SslContextBuilder.forServer(
                                            broker.certificate().toFile(),
                                            broker.key().toFile())
                                    .build(),
                            "as is");
                } catch (SSLException e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public List<Path> files() {
                return List.of();
            }
        };
        // Kept from initChannel: a handshake that fails at once closes the channel and empties its pipeline.
        AtomicReference<SslHandler> handler = new AtomicReference<>();
        try (TlsEchoServer server = new TlsEchoServer(
                ReloadingSslContext.load("broker", presentAsIs, SslProvider.JDK, stats::tlsReloadFailed))) {
            Channel channel = new Bootstrap()
                    .group(group)
                    .channel(NioSocketChannel.class)
                    .handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            SslHandler tls = upstream.newClientHandler(ch.alloc(), "127.0.0.1", server.port(), 5000);
                            handler.set(tls);
                            ch.pipeline().addLast(tls, new ChannelInboundHandlerAdapter());
                        }
                    })
                    .connect("127.0.0.1", server.port())
                    .sync()
                    .channel();
            Future<Channel> done = handler.get().handshakeFuture().await();
            channel.close().sync();
            return done.cause();
        }
    }

    private static String refusal(Throwable cause) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = cause; t != null; t = t.getCause()) {
            text.append(t).append(" / ");
        }
        return text.toString();
    }
}
