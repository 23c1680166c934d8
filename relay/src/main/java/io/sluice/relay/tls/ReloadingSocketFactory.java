package io.sluice.relay.tls;

import javax.net.SocketFactory;
import javax.net.ssl.SSLSocketFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;

/**
 * Blocking TLS sockets to the upstream ({@link UpstreamTlsFiles#blockingSockets()}) that follow its
 * files: {@link #reload()} after the upstream's {@link ReloadingSslContext} took new files, so a
 * front end's own requests to a broker present the same client certificate as its connections.
 * Sockets from {@link #createSocket()} are unconnected {@code SSLSocket}s.
 */
public final class ReloadingSocketFactory extends SocketFactory {

    private final UpstreamTlsFiles files;
    private volatile SSLSocketFactory current;

    /** @throws TlsFileException when a file cannot be used */
    public ReloadingSocketFactory(UpstreamTlsFiles files) {
        this.files = files;
        this.current = files.blockingSockets();
    }

    /**
     * Builds sockets from the files as they are now; keeps the current ones when a file cannot be
     * used (the upstream's context has logged and counted that already).
     */
    public void reload() {
        try {
            current = files.blockingSockets();
        } catch (TlsFileException keepTheCurrentOnes) {
            // Reported by the context that read the same files a moment ago.
        }
    }

    @Override
    public Socket createSocket() throws IOException {
        return current.createSocket();
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return current.createSocket(host, port);
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return current.createSocket(host, port, localHost, localPort);
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return current.createSocket(host, port);
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
            throws IOException {
        return current.createSocket(address, port, localAddress, localPort);
    }
}
