package io.sluice.admin;

import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real admin server with a 1 s idle timeout against raw sockets: slow, silent and idle
 * connections are closed by the server, while other clients are answered. Only lower bounds on
 * time are tight; the upper bounds leave room for a busy machine.
 */
@ExtendWith(LeakCheck.class)
class AdminIdleTimeoutTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    /** Far above the timeout: only a server that never closes takes this long. */
    private static final int GIVE_UP_MILLIS = 15_000;

    @TempDir
    Path dir;

    private AdminFixture admin;

    @BeforeEach
    void start() throws IOException {
        admin = AdminFixture.withIdleTimeout(dir, TIMEOUT);
    }

    @AfterEach
    void stop() {
        admin.close();
    }

    @Test
    void aConnectionThatSendsNothingIsClosed() throws IOException {
        long start = System.nanoTime();
        try (Socket socket = connect()) {
            awaitClosedByServer(socket);

            assertAtLeastTheTimeout(start);
        }
    }

    @Test
    void aSlowlorisIsCutOffThoughItsBytesKeepComingAndOthersAreAnswered() throws Exception {
        long start = System.nanoTime();
        try (Socket socket = connect()) {
            AtomicInteger sent = new AtomicInteger();
            Thread slowloris = new Thread(() -> dribble(socket, sent), "slowloris");
            slowloris.setDaemon(true);
            slowloris.start();
            assertEquals(200, admin.get("/healthz").statusCode(), "another client while the slowloris sends");

            awaitClosedByServer(socket);

            assertAtLeastTheTimeout(start);
            slowloris.join(GIVE_UP_MILLIS);
            assertTrue(sent.get() >= 5, "the slowloris sent only " + sent.get() + " bytes before it was cut off");
        }
    }

    @Test
    void aKeepAliveConnectionIsClosedWhenIdleAfterItsAnswer() throws IOException {
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            out.write("GET /healthz HTTP/1.1\r\nHost: sluice\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            long start = System.nanoTime();

            String received = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);

            assertTrue(received.startsWith("HTTP/1.1 200 "), received);
            assertAtLeastTheTimeout(start);
        }
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", admin.server.port());
        socket.setSoTimeout(GIVE_UP_MILLIS);
        return socket;
    }

    /** Request headers that never end, one byte every 100 ms, until the server closes the connection. */
    private static void dribble(Socket socket, AtomicInteger sent) {
        byte[] start = "GET /healthz HTTP/1.1\r\nHost: sluice\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII);
        try {
            OutputStream out = socket.getOutputStream();
            for (int i = 0; !socket.isClosed(); i++) {
                out.write(i < start.length ? start[i] : 'z');
                out.flush();
                sent.incrementAndGet();
                Thread.sleep(100);
            }
        } catch (IOException e) {
            // The server closed the connection: what the test waits for.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Returns when the server has closed the connection; a read timeout means it never did. */
    private static void awaitClosedByServer(Socket socket) throws IOException {
        try {
            assertEquals(-1, socket.getInputStream().read(), "the server sent something");
        } catch (SocketException e) {
            // Reset: the client wrote after the server closed. Closed all the same.
        }
    }

    /** The server's clock starts after {@code startNanos}, so its close cannot come sooner than this. */
    private static void assertAtLeastTheTimeout(long startNanos) {
        long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
        assertTrue(elapsed >= TIMEOUT.toMillis(), "closed after " + elapsed + " ms, before the timeout");
    }
}
