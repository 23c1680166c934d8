package io.sluice.server.it;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.util.Arrays;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A DNS server on loopback that knows no name and says so only after a delay: every query is
 * answered NXDOMAIN {@code delayMillis} after it came. What a resolver that blocks would wait for.
 */
final class SlowDnsServer implements AutoCloseable {

    private final DatagramSocket socket;
    private final long delayMillis;
    private final ScheduledExecutorService answers = Executors.newSingleThreadScheduledExecutor();
    private final Thread receiver;
    final AtomicInteger queries = new AtomicInteger();

    SlowDnsServer(long delayMillis) throws SocketException {
        this.socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        this.delayMillis = delayMillis;
        this.receiver = new Thread(this::receive, "slow-dns");
        receiver.setDaemon(true);
        receiver.start();
    }

    /** Where resolvers should ask, {@code 127.0.0.1:PORT}. */
    String address() {
        return "127.0.0.1:" + socket.getLocalPort();
    }

    private void receive() {
        byte[] buffer = new byte[512];
        while (!socket.isClosed()) {
            DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
            try {
                socket.receive(packet);
            } catch (IOException closed) {
                return;
            }
            queries.incrementAndGet();
            byte[] answer = Arrays.copyOf(packet.getData(), packet.getLength());
            if (answer.length < 12) {
                continue;
            }
            // The query itself, as a response (QR), recursion available, NXDOMAIN.
            answer[2] = (byte) (answer[2] | 0x80);
            answer[3] = (byte) 0x83;
            DatagramPacket reply = new DatagramPacket(answer, answer.length, packet.getSocketAddress());
            answers.schedule(
                    () -> {
                        try {
                            socket.send(reply);
                        } catch (IOException closed) {
                            // The test is over.
                        }
                    },
                    delayMillis,
                    TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void close() throws InterruptedException {
        socket.close();
        answers.shutdownNow();
        receiver.join();
    }
}
