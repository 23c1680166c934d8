package io.sluice.server.it;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandConnect;
import io.sluice.pulsar.codec.proto.CommandLookupTopic;
import io.sluice.pulsar.codec.proto.CommandProducer;
import io.sluice.pulsar.codec.proto.CommandSend;
import io.sluice.pulsar.codec.proto.CommandSubscribe;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;

/**
 * The Pulsar protocol spoken by hand over a plain socket, for peers no stock client would be:
 * one that never reads, one that stalls mid-frame, one that declares absurd sizes.
 */
final class RawPulsarClient implements AutoCloseable {

    final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;

    RawPulsarClient(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(30_000);
        out = socket.getOutputStream();
        in = new DataInputStream(socket.getInputStream());
    }

    /** Sends CONNECT and returns the broker's answer (CONNECTED, or ERROR). */
    BaseCommand connect() throws IOException {
        write(connectFrame());
        return readCommand();
    }

    /**
     * Opens a connection to {@code port}, sends a CONNECT naming {@code proxyToBrokerUrl} and returns
     * the first answer; the connection is closed after it.
     */
    static BaseCommand connectTo(int port, String proxyToBrokerUrl) throws IOException {
        try (RawPulsarClient client = new RawPulsarClient(port)) {
            client.write(command(BaseCommand.newBuilder()
                    .setType(BaseCommand.Type.CONNECT)
                    .setConnect(CommandConnect.newBuilder()
                            .setClientVersion("hostile")
                            .setProtocolVersion(21)
                            .setProxyToBrokerUrl(proxyToBrokerUrl))));
            return client.readCommand();
        }
    }

    /** A CONNECT frame as a protocol-21 client without authentication sends it. */
    static byte[] connectFrame() {
        return command(BaseCommand.newBuilder()
                .setType(BaseCommand.Type.CONNECT)
                .setConnect(
                        CommandConnect.newBuilder().setClientVersion("raw-it").setProtocolVersion(21)));
    }

    /** A CONNECT frame as a protocol-21 client with token authentication sends it. */
    static byte[] connectFrame(String token) {
        return authenticatedConnectFrame("token", token);
    }

    /**
     * Sends a CONNECT with basic authentication as {@code user} (which Sluice takes for the role once
     * the broker accepts it; a broker without authentication accepts any) and returns the answer.
     */
    BaseCommand connectAs(String user) throws IOException {
        write(authenticatedConnectFrame("basic", user + ":password"));
        return readCommand();
    }

    private static byte[] authenticatedConnectFrame(String method, String data) {
        return command(BaseCommand.newBuilder()
                .setType(BaseCommand.Type.CONNECT)
                .setConnect(CommandConnect.newBuilder()
                        .setClientVersion("raw-it")
                        .setProtocolVersion(21)
                        .setAuthMethodName(method)
                        .setAuthData(ByteString.copyFromUtf8(data))));
    }

    /** A LOOKUP frame for {@code topic} with request id {@code requestId}. */
    static byte[] lookupFrame(String topic, long requestId) {
        return command(BaseCommand.newBuilder()
                .setType(BaseCommand.Type.LOOKUP)
                .setLookupTopic(CommandLookupTopic.newBuilder().setTopic(topic).setRequestId(requestId)));
    }

    /** Looks {@code topic} up, as a real client does before its PRODUCER: the broker then owns the topic's bundle. */
    BaseCommand lookup(String topic) throws IOException {
        write(command(BaseCommand.newBuilder()
                .setType(BaseCommand.Type.LOOKUP)
                .setLookupTopic(CommandLookupTopic.newBuilder().setTopic(topic).setRequestId(0))));
        return readCommand();
    }

    /**
     * Creates producer {@code producerId} on {@code topic}; returns the last answer. Like a real
     * client it retries an ERROR (the broker refuses while the topic's bundle is still loading,
     * since this client skips the lookup that would have loaded it: see {@link #lookup}).
     */
    BaseCommand producer(long producerId, String topic) throws IOException {
        BaseCommand answer = null;
        for (int requestId = 1; requestId <= 20; requestId++) {
            answer = repeatProducer(producerId, topic, requestId);
            if (answer.getType() != BaseCommand.Type.ERROR) {
                return answer;
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return answer;
            }
        }
        return answer;
    }

    /**
     * One PRODUCER for {@code producerId} on {@code topic} with request id {@code requestId} (for an
     * id already active: a second one, naming another topic); returns the broker's answer.
     */
    BaseCommand repeatProducer(long producerId, String topic, long requestId) throws IOException {
        write(producerFrame(producerId, topic, requestId));
        return readCommand();
    }

    /** A PRODUCER frame for {@code producerId} on {@code topic} with request id {@code requestId}. */
    static byte[] producerFrame(long producerId, String topic, long requestId) {
        return command(BaseCommand.newBuilder()
                .setType(BaseCommand.Type.PRODUCER)
                .setProducer(CommandProducer.newBuilder()
                        .setTopic(topic)
                        .setProducerId(producerId)
                        .setRequestId(requestId)));
    }

    /** A SUBSCRIBE frame: an exclusive consumer {@code consumerId} of {@code subscription} on {@code topic}. */
    static byte[] subscribeFrame(long consumerId, String topic, String subscription, long requestId) {
        return command(BaseCommand.newBuilder()
                .setType(BaseCommand.Type.SUBSCRIBE)
                .setSubscribe(CommandSubscribe.newBuilder()
                        .setTopic(topic)
                        .setSubscription(subscription)
                        .setSubType(0)
                        .setConsumerId(consumerId)
                        .setRequestId(requestId)));
    }

    /** A FLOW frame granting {@code permits} to {@code consumerId}. */
    static byte[] flowFrame(long consumerId, int permits) {
        ByteBuf frame = FrameWriter.flow(ByteBufAllocator.DEFAULT, consumerId, permits);
        try {
            return ByteBufUtil.getBytes(frame);
        } finally {
            frame.release();
        }
    }

    /**
     * Reads commands for {@code millis}; returns how many of them were of {@code type}. The last
     * read may stop inside a frame: read nothing more from this client afterwards.
     */
    int countFor(BaseCommand.Type type, long millis) throws IOException {
        long end = System.nanoTime() + millis * 1_000_000;
        int count = 0;
        while (true) {
            long left = (end - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                return count;
            }
            socket.setSoTimeout((int) left);
            try {
                if (readCommand().getType() == type) {
                    count++;
                }
            } catch (java.net.SocketTimeoutException timeUp) {
                return count;
            } finally {
                socket.setSoTimeout(30_000);
            }
        }
    }

    /** A SEND frame of one message, without checksum (the broker verifies none then). */
    static byte[] send(long producerId, long sequenceId, byte[] payload) throws IOException {
        return send(producerId, sequenceId, 1, 1, payload);
    }

    /**
     * A SEND frame whose command declares {@code declared} messages while its metadata says the
     * batch holds {@code inBatch}, as a client that lies about its count writes it.
     */
    static byte[] send(long producerId, long sequenceId, int declared, int inBatch, byte[] payload) throws IOException {
        BaseCommand command = BaseCommand.newBuilder()
                .setType(BaseCommand.Type.SEND)
                .setSend(CommandSend.newBuilder()
                        .setProducerId(producerId)
                        .setSequenceId(sequenceId)
                        .setNumMessages(declared))
                .build();
        byte[] cmd = command.toByteArray();
        byte[] metadata = metadata(sequenceId, inBatch);
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        int total = 4 + cmd.length + 4 + metadata.length + payload.length;
        writeInt(frame, total);
        writeInt(frame, cmd.length);
        frame.write(cmd);
        writeInt(frame, metadata.length);
        frame.write(metadata);
        frame.write(payload);
        return frame.toByteArray();
    }

    /**
     * MessageMetadata's required fields, producer_name (1), sequence_id (2), publish_time (3), and
     * num_messages_in_batch (11) when the send is a batch.
     */
    private static byte[] metadata(long sequenceId, int inBatch) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        out.writeString(1, "raw-it");
        out.writeUInt64(2, sequenceId);
        out.writeUInt64(3, System.currentTimeMillis());
        if (inBatch > 1) {
            out.writeInt32(11, inBatch);
        }
        out.flush();
        return bytes.toByteArray();
    }

    void write(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    BaseCommand readCommand() throws IOException {
        int total = in.readInt();
        int commandSize = in.readInt();
        byte[] command = new byte[commandSize];
        in.readFully(command);
        in.skipNBytes(total - 4 - commandSize);
        return BaseCommand.parseFrom(command);
    }

    /** True once the other side has closed the connection (read returns end of stream). */
    boolean closedByPeer() throws IOException {
        try {
            while (true) {
                if (in.read() < 0) {
                    return true;
                }
            }
        } catch (java.net.SocketException e) {
            return true; // reset
        }
    }

    private static byte[] command(BaseCommand.Builder command) {
        ByteBuf frame = FrameWriter.encode(ByteBufAllocator.DEFAULT, command.build());
        try {
            return ByteBufUtil.getBytes(frame);
        } finally {
            frame.release();
        }
    }

    private static void writeInt(ByteArrayOutputStream out, int value) {
        out.write(value >>> 24);
        out.write(value >>> 16);
        out.write(value >>> 8);
        out.write(value);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
