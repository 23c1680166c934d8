package io.sluice.server.it;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandConnect;
import io.sluice.pulsar.codec.proto.CommandError;
import io.sluice.testkit.pulsar.PulsarBroker;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Clients that misbehave are cut off; everyone else carries on. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HostilePeersIT {

    private static final PulsarBroker broker = PulsarBroker.shared();
    private static RunningSluice sluice;

    @BeforeAll
    static void startSluice() {
        sluice = RunningSluice.frontProxy(broker);
    }

    @AfterAll
    static void stopSluice() {
        sluice.close();
    }

    @Test
    @Order(0)
    void aHostileBrokerUrlIsLoggedOnceEscapedAndCutHoweverOftenItComes() throws Exception {
        String url = "pulsar://evil:6650\n2026-12-02 01:00:00 WARN forged line " + "a".repeat(10 * 1024);
        PrintStream stderr = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            for (int i = 0; i < 5; i++) {
                assertEquals(BaseCommand.Type.ERROR, connectTo(url).getType());
            }
        } finally {
            System.setErr(stderr);
        }

        List<String> lines = captured.toString(StandardCharsets.UTF_8)
                .lines()
                .filter(line -> line.contains("proxy_to_broker_url") || line.contains("forged"))
                .toList();
        assertEquals(1, lines.size(), "one line for five refusals in ten seconds: " + lines);
        String line = lines.get(0);
        assertTrue(line.contains("pulsar://evil:6650\\n2026-12-02 01:00:00 WARN forged line aaa"), line);
        assertTrue(line.contains("...(cut, " + url.length() + " characters in all)"), line);
        assertTrue(line.length() < 1024, "a line of " + line.length() + " characters");
    }

    @Test
    void aClientSendingGarbageIsDisconnectedWhileAnotherKeepsPublishing() throws Exception {
        try (PulsarClient client =
                        PulsarClient.builder().serviceUrl(sluice.serviceUrl).build();
                Producer<String> producer = client.newProducer(Schema.STRING)
                        .topic("persistent://public/default/garbage-neighbour-" + System.nanoTime())
                        .create()) {
            producer.send("before");
            long errorsBefore = protocolErrors();
            try (Socket garbage = new Socket("127.0.0.1", sluice.server.proxyPort())) {
                garbage.setSoTimeout(10_000);
                garbage.getOutputStream()
                        .write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                garbage.getOutputStream().flush();
                assertEquals(-1, garbage.getInputStream().read(), "Sluice closes the garbage connection");
            }
            producer.send("after");
            assertTrue(protocolErrors() > errorsBefore, "the close is counted");
        }
    }

    @Test
    void aClientAskingForABrokerOutsideTheAllowListIsRefusedAndClosed() throws Exception {
        ByteBuf connect = FrameWriter.encode(
                ByteBufAllocator.DEFAULT,
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.CONNECT)
                        .setConnect(CommandConnect.newBuilder()
                                .setClientVersion("hostile")
                                .setProtocolVersion(21)
                                .setProxyToBrokerUrl("pulsar://127.0.0.1:22"))
                        .build());
        try (Socket socket = new Socket("127.0.0.1", sluice.server.proxyPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(ByteBufUtil.getBytes(connect));
            connect.release();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            int total = in.readInt();
            int commandSize = in.readInt();
            byte[] command = new byte[commandSize];
            in.readFully(command);
            assertEquals(total, 4 + commandSize);
            BaseCommand answer = BaseCommand.parseFrom(command);
            assertEquals(BaseCommand.Type.ERROR, answer.getType());
            CommandError error = answer.getError();
            assertTrue(error.getMessage().contains("pulsar://127.0.0.1:22"), error.getMessage());
            InputStream rest = socket.getInputStream();
            assertEquals(-1, rest.read(), "connection closed after the error");
        }
    }

    @Test
    void aFrameLargerThanTheBrokerAllowsClosesOnlyThatConnection() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", sluice.server.proxyPort())) {
            socket.setSoTimeout(10_000);
            byte[] header = {(byte) 0x80, 0, 0, 0, 0, 0, 0, 4};
            socket.getOutputStream().write(header);
            assertEquals(-1, socket.getInputStream().read());
        }
        try (PulsarClient client = PulsarClient.builder()
                .serviceUrl(sluice.serviceUrl)
                .operationTimeout(10, TimeUnit.SECONDS)
                .build()) {
            client.newProducer(Schema.STRING)
                    .topic("persistent://public/default/after-huge-" + System.nanoTime())
                    .create()
                    .send("still fine");
        }
    }

    @Test
    void aFrameOver64KibibytesBeforeConnectedClosesThatConnectionAndAfterItAMebibyteMessagePasses() throws Exception {
        long tooLarge = sluice.server.stats().protocolErrors().getOrDefault("frame_too_large", 0L);
        try (Socket socket = new Socket("127.0.0.1", sluice.server.proxyPort())) {
            socket.setSoTimeout(10_000);
            // A size of 64 KiB + 1, then the start of a command: no CONNECT needs that much.
            byte[] header = {0, 1, 0, 1, 0, 0, 0, 4};
            socket.getOutputStream().write(header);
            assertEquals(-1, socket.getInputStream().read());
        }
        assertEquals(tooLarge + 1, sluice.server.stats().protocolErrors().get("frame_too_large"));
        try (PulsarClient client = PulsarClient.builder()
                .serviceUrl(sluice.serviceUrl)
                .operationTimeout(10, TimeUnit.SECONDS)
                .build()) {
            client.newProducer()
                    .topic("persistent://public/default/mebibyte-" + System.nanoTime())
                    .enableBatching(false)
                    .create()
                    .send(new byte[1 << 20]);
        }
    }

    /** Sends a CONNECT naming {@code proxyToBrokerUrl} and returns Sluice's answer, the connection closed after it. */
    private static BaseCommand connectTo(String proxyToBrokerUrl) throws Exception {
        return RawPulsarClient.connectTo(sluice.server.proxyPort(), proxyToBrokerUrl);
    }

    private static long protocolErrors() {
        return sluice.server.stats().protocolErrors().values().stream()
                .mapToLong(Long::longValue)
                .sum();
    }
}
