package io.sluice.frontend;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.proxyprotocol.ProxyProtocol;
import io.sluice.relay.tls.ReloadingSslContext;

import javax.net.SocketFactory;
import java.time.Duration;
import java.util.Objects;

/**
 * What the server lends a front end when it opens it ({@link FrontEndConfig#open}): the engine's
 * services with the front end's own counters, the event loops every front end shares, the
 * handshake deadline, and the TLS it must speak.
 *
 * <p>TLS: with {@code --tls-cert} every front end's ports speak TLS, all with the same certificate
 * ({@link #portTls} is then not null, and a port puts {@code portTls.newServerHandler} first in
 * each client pipeline); {@code --tls-client-ca} makes them ask for client certificates as well.
 * The upstream speaks TLS when the front end's own option says so ({@link FrontEndConfig#upstreamTls()}).
 * The server reloads the contexts when their files change and counts failed reloads in the front
 * end's {@link ProxyServices#stats() counters}.
 *
 * @param services           the engine (quotas, meters, throttle ledger, admission) and the
 *                           front end's own {@link io.sluice.relay.ProxyStats}
 * @param acceptors          the event loop that accepts connections on every port
 * @param workers            the event loops that serve them; an upstream connection goes on its
 *                           client connection's loop
 * @param serverChannelType  the server socket channel class matching the event loops' transport
 * @param socketChannelType  the socket channel class for upstream connections
 * @param handshakeTimeout   {@code --handshake-timeout}: how long a client connection may take
 *                           from accept until the upstream's first answer, TLS handshakes included
 * @param portTls            the TLS of the front end's ports, or null for plaintext
 * @param clientCertificates whether {@link #portTls} asks clients for a certificate ({@code --tls-client-ca})
 * @param upstreamTls        the TLS to the upstream, or null for plaintext
 * @param upstreamSockets    sockets for blocking requests of the front end's own to its upstream
 *                           (a readiness probe, a metadata request): TLS ones trusting
 *                           {@code --upstream-tls-ca} when the upstream speaks TLS
 * @param maxConnections     {@code --max-connections}: client connections the front end's ports
 *                           keep open at once, all ports together; past them a new one is closed
 *                           at once and counted
 * @param proxyProtocol      {@code --proxy-protocol} and {@code --proxy-protocol-from}: whether
 *                           connections to the front end's ports start with a PROXY protocol
 *                           header naming the client; {@link #ports} reads it, so a front end
 *                           gets it by doing nothing
 */
public record FrontEndContext(
        ProxyServices services,
        EventLoopGroup acceptors,
        EventLoopGroup workers,
        Class<? extends ServerChannel> serverChannelType,
        Class<? extends SocketChannel> socketChannelType,
        Duration handshakeTimeout,
        ReloadingSslContext portTls,
        boolean clientCertificates,
        ReloadingSslContext upstreamTls,
        SocketFactory upstreamSockets,
        int maxConnections,
        ProxyProtocol proxyProtocol) {

    public FrontEndContext {
        Objects.requireNonNull(services, "services");
        Objects.requireNonNull(acceptors, "acceptors");
        Objects.requireNonNull(workers, "workers");
        Objects.requireNonNull(serverChannelType, "serverChannelType");
        Objects.requireNonNull(socketChannelType, "socketChannelType");
        Objects.requireNonNull(handshakeTimeout, "handshakeTimeout");
        Objects.requireNonNull(upstreamSockets, "upstreamSockets");
        Objects.requireNonNull(proxyProtocol, "proxyProtocol");
        if (maxConnections <= 0) {
            throw new IllegalArgumentException("maxConnections must be positive, got " + maxConnections);
        }
    }

    /**
     * A set of ports for the front end on the server's event loops; a client channel turns
     * unwritable (and its upstream's reads pause) above {@code waterMark}'s high mark.
     */
    public ClientPorts ports(WriteBufferWaterMark waterMark) {
        return new ClientPorts(
                services.stats(), maxConnections, acceptors, workers, serverChannelType, waterMark, proxyProtocol);
    }
}
