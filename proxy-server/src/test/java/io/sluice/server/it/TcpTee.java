package io.sluice.server.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A recording TCP relay: forwards every accepted connection to {@code host:port} and keeps each
 * direction's bytes, so a test can see exactly what a real client and broker say to each other.
 */
public final class TcpTee implements AutoCloseable {

    /** The bytes of one relayed connection, each direction in order. */
    public static final class Recording {
        final ByteArrayOutputStream fromClient = new ByteArrayOutputStream();
        final ByteArrayOutputStream fromServer = new ByteArrayOutputStream();

        public synchronized byte[] clientBytes() {
            return fromClient.toByteArray();
        }

        public synchronized byte[] serverBytes() {
            return fromServer.toByteArray();
        }
    }

    private final ServerSocket server;
    private final String host;
    private final int port;
    private final Function<Socket, byte[]> preface;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    public final List<Recording> recordings = new CopyOnWriteArrayList<>();

    TcpTee(String host, int port) throws IOException {
        this(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), host, port);
    }

    /** A relay listening on {@code listen} (a port of its own choosing when that port is 0). */
    public TcpTee(InetSocketAddress listen, String host, int port) throws IOException {
        this(listen, host, port, client -> null);
    }

    /**
     * A relay that first writes {@code preface(client)} upstream on each connection, as a load
     * balancer writes its PROXY protocol header (nothing when it gives null).
     */
    public TcpTee(InetSocketAddress listen, String host, int port, Function<Socket, byte[]> preface)
            throws IOException {
        this.preface = preface;
        this.host = host;
        this.port = port;
        this.server = new ServerSocket(listen.getPort(), 50, listen.getAddress());
        Thread acceptor = new Thread(this::accept, "tee-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket(host, port);
                sockets.add(client);
                sockets.add(upstream);
                byte[] header = preface.apply(client);
                if (header != null) {
                    upstream.getOutputStream().write(header);
                }
                Recording recording = new Recording();
                recordings.add(recording);
                pump(client, upstream, recording, recording.fromClient);
                pump(upstream, client, recording, recording.fromServer);
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void pump(Socket from, Socket to, Recording lock, ByteArrayOutputStream record) {
        Thread thread = new Thread(
                () -> {
                    byte[] buffer = new byte[8192];
                    try (InputStream in = from.getInputStream();
                            OutputStream out = to.getOutputStream()) {
                        int n;
                        while ((n = in.read(buffer)) > 0) {
                            synchronized (lock) {
                                record.write(buffer, 0, n);
                            }
                            out.write(buffer, 0, n);
                        }
                    } catch (IOException e) {
                        // One side closed: the relay of this connection is over.
                    }
                },
                "tee-pump");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : sockets) {
            socket.close();
        }
    }
}
