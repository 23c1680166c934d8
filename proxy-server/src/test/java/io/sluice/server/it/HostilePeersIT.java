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
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Clients that misbehave are cut off; everyone else carries on. */
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

    private static long protocolErrors() {
        return sluice.server.stats().protocolErrors().values().stream()
                .mapToLong(Long::longValue)
                .sum();
    }
}
