package io.sluice.server.it;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.relay.FrameView;
import io.sluice.testkit.pulsar.PulsarBroker;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageId;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.Reader;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.client.api.SubscriptionType;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Records what a real pulsar-client 4.0.7 and the broker say to each other (through {@link TcpTee})
 * and checks that Sluice's fast readers agree with protobuf on every frame. It also produces the
 * fuzz seed corpus: with {@code -Dsluice.corpus.dir=proxy-core/src/test/resources} (absolute, or
 * relative to this module) it writes
 * <ul>
 *   <li>one file per distinct command type and direction to {@code .../FrameFuzzTestInputs/decodeAndRead/},</li>
 *   <li>each connection's whole client byte stream to {@code .../ClientPipelineFuzzTestInputs/clientBytes/}.</li>
 * </ul>
 * Without the property it writes them under {@code target/corpus}.
 */
class CorpusCaptureIT {

    private static final PulsarBroker broker = PulsarBroker.shared();
    private static final int MAX_CLIENT_STREAM = 16 * 1024;

    @Test
    void recordsARealClientSession() throws Exception {
        List<TcpTee.Recording> recordings;
        try (TcpTee tee = new TcpTee("127.0.0.1", broker.brokerPort())) {
            exerciseClient("pulsar://127.0.0.1:" + tee.port());
            recordings = List.copyOf(tee.recordings);
        }
        Path root = Path.of(System.getProperty("sluice.corpus.dir", "target/corpus"));
        Path frames = Files.createDirectories(root.resolve("io/sluice/pulsar/codec/FrameFuzzTestInputs/decodeAndRead"));
        Path streams = Files.createDirectories(
                root.resolve("io/sluice/pulsar/proxy/ClientPipelineFuzzTestInputs/clientBytes"));
        Set<String> seen = new HashSet<>();
        int connection = 0;
        for (TcpTee.Recording recording : recordings) {
            connection++;
            byte[] client = recording.clientBytes();
            for (byte[] frame : split(client)) {
                keepFirstOfType(frames, "client", frame, seen);
            }
            for (byte[] frame : split(recording.serverBytes())) {
                keepFirstOfType(frames, "broker", frame, seen);
            }
            if (client.length > 0) {
                Files.write(
                        streams.resolve("client-connection-" + connection),
                        Arrays.copyOf(client, Math.min(client.length, MAX_CLIENT_STREAM)));
            }
        }
        for (String wanted : List.of(
                "client-CONNECT",
                "client-PRODUCER",
                "client-SEND",
                "client-SUBSCRIBE",
                "client-FLOW",
                "client-LOOKUP",
                "broker-SEND_RECEIPT",
                "broker-MESSAGE")) {
            assertTrue(seen.contains(wanted), "no " + wanted + " recorded; saw " + seen);
        }
    }

    /** A producer with batching, one without, a consumer, a reader: the commands a client sends. */
    private static void exerciseClient(String serviceUrl) throws Exception {
        try (PulsarClient client = PulsarClient.builder().serviceUrl(serviceUrl).build()) {
            try (Producer<byte[]> batched = client.newProducer()
                            .topic("persistent://public/default/fuzz-delay")
                            .enableBatching(true)
                            .batchingMaxPublishDelay(20, TimeUnit.MILLISECONDS)
                            .create();
                    Producer<String> single = client.newProducer(Schema.STRING)
                            .topic("persistent://public/default/fuzz-reject")
                            .enableBatching(false)
                            .create();
                    Consumer<String> consumer = client.newConsumer(Schema.STRING)
                            .topic("persistent://public/default/fuzz-reject")
                            .subscriptionName("fuzz")
                            .subscriptionType(SubscriptionType.Shared)
                            .receiverQueueSize(10)
                            .subscribe()) {
                List<CompletableFuture<MessageId>> sent = new ArrayList<>();
                for (int i = 0; i < 5; i++) {
                    sent.add(batched.sendAsync(("batched-" + i).getBytes()));
                }
                CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
                single.newMessage().key("k").property("p", "v").value("single").send();
                Message<String> message = consumer.receive(30, TimeUnit.SECONDS);
                consumer.acknowledge(message);
            }
            try (Reader<String> reader = client.newReader(Schema.STRING)
                    .topic("persistent://public/default/fuzz-reject")
                    .startMessageId(MessageId.earliest)
                    .create()) {
                reader.readNext(30, TimeUnit.SECONDS);
            }
        }
    }

    /** The frames of a recorded byte stream, as their length prefixes say. */
    private static List<byte[]> split(byte[] stream) {
        List<byte[]> frames = new ArrayList<>();
        int at = 0;
        while (at + 4 <= stream.length) {
            int size = 4 + (int) Unpooled.wrappedBuffer(stream, at, 4).getUnsignedInt(0);
            if (at + size > stream.length) {
                break;
            }
            frames.add(Arrays.copyOfRange(stream, at, at + size));
            at += size;
        }
        return frames;
    }

    /** Writes the first frame of each command type and direction; checks the fast reader agrees with protobuf. */
    private static void keepFirstOfType(Path dir, String side, byte[] frame, Set<String> seen) throws IOException {
        ByteBuf buf = Unpooled.wrappedBuffer(frame);
        int type = FrameReader.type(FrameView.of(buf));
        BaseCommand command = FrameReader.parse(FrameView.of(buf));
        assertTrue(!command.hasType() || command.getType().getNumber() == type, "type read differently: " + type);
        String name = side + "-" + (command.hasType() ? command.getType().name() : "TYPE_" + type);
        if (seen.add(name)) {
            Files.write(dir.resolve(name), frame);
        }
    }
}
