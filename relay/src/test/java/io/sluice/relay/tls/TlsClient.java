package io.sluice.relay.tls;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;

/** A JDK TLS client of a test server: which certificate it was shown, and whether data round-trips. */
final class TlsClient implements AutoCloseable {

    private final SSLSocket socket;

    TlsClient(SSLContext context, int port, String... protocols) throws IOException {
        socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        if (protocols.length > 0) {
            parameters.setProtocols(protocols);
        }
        socket.setSSLParameters(parameters);
    }

    /** The serial of the certificate the server presented; the handshake happens now if not yet. */
    BigInteger serverSerial() throws IOException {
        socket.startHandshake();
        return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
    }

    String protocol() throws IOException {
        socket.startHandshake();
        return socket.getSession().getProtocol();
    }

    /** Whether {@code text} comes back: false when the handshake or the connection fails. */
    boolean echoes(String text) {
        try {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            socket.getOutputStream().write(bytes);
            socket.getOutputStream().flush();
            byte[] back = socket.getInputStream().readNBytes(bytes.length);
            return text.equals(new String(back, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** Whether a plain socket that sent {@code bytes} was closed by the server within the timeout. */
    static boolean closedAfterSending(int port, byte[] bytes) throws IOException {
        try (Socket plain = new Socket("127.0.0.1", port)) {
            plain.setSoTimeout(10_000);
            plain.getOutputStream().write(bytes);
            plain.getOutputStream().flush();
            InputStream in = plain.getInputStream();
            try {
                while (in.read() >= 0) {
                    // A TLS alert may come first; the close is what counts.
                }
                return true;
            } catch (SocketTimeoutException stillOpen) {
                return false;
            } catch (SocketException reset) {
                return true;
            }
        }
    }
}
