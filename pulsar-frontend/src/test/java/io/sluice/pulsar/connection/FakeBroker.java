package io.sluice.pulsar.connection;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandConnected;
import io.sluice.pulsar.codec.proto.CommandMessage;
import io.sluice.pulsar.codec.proto.CommandProducerSuccess;
import io.sluice.pulsar.codec.proto.CommandSendReceipt;
import io.sluice.pulsar.codec.proto.CommandSuccess;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;

import java.util.ArrayList;
import java.util.List;

/**
 * The broker end of an in-memory upstream channel: reads what the proxy wrote to it and answers
 * as a broker would (CONNECTED, PRODUCER_SUCCESS, SUCCESS, a receipt per SEND, a MESSAGE per FLOW),
 * so a client pipeline under test gets past CONNECT into publishing and dispatch.
 */
final class FakeBroker {

    private final ByteBufAllocator alloc;
    /** Commands the broker received, by type number, in order. */
    final List<Integer> received = new ArrayList<>();

    FakeBroker(ByteBufAllocator alloc) {
        this.alloc = alloc;
    }

    /** Answers every frame waiting in {@code upstream}'s outbound queue; returns how many it read. */
    int answer(EmbeddedChannel upstream) {
        int read = 0;
        ByteBuf frame;
        while ((frame = upstream.readOutbound()) != null) {
            read++;
            if (!frame.isReadable()) {
                frame.release(); // the empty flush the proxy writes before closing
                continue;
            }
            ByteBuf reply;
            try {
                reply = replyTo(FrameReader.parse(FrameView.of(frame)));
            } catch (MalformedFrameException e) {
                reply = null; // a real broker would close; the proxy forwarded it as it came
            } finally {
                frame.release();
            }
            if (reply != null && upstream.isOpen()) {
                upstream.writeInbound(reply);
            } else if (reply != null) {
                reply.release();
            }
        }
        return read;
    }

    private ByteBuf replyTo(BaseCommand command) {
        received.add(command.getType().getNumber());
        BaseCommand.Builder reply = BaseCommand.newBuilder();
        switch (command.getType()) {
            case CONNECT ->
                reply.setType(BaseCommand.Type.CONNECTED)
                        .setConnected(CommandConnected.newBuilder()
                                .setServerVersion("fake")
                                .setProtocolVersion(21)
                                .setMaxMessageSize(5 * 1024 * 1024));
            case PRODUCER ->
                reply.setType(BaseCommand.Type.PRODUCER_SUCCESS)
                        .setProducerSuccess(CommandProducerSuccess.newBuilder()
                                .setRequestId(command.getProducer().getRequestId())
                                .setProducerName("p"));
            case SUBSCRIBE ->
                reply.setType(BaseCommand.Type.SUCCESS)
                        .setSuccess(CommandSuccess.newBuilder()
                                .setRequestId(command.getSubscribe().getRequestId()));
            case SEND ->
                reply.setType(BaseCommand.Type.SEND_RECEIPT)
                        .setSendReceipt(CommandSendReceipt.newBuilder()
                                .setProducerId(command.getSend().getProducerId())
                                .setSequenceId(command.getSend().getSequenceId()));
            case FLOW -> {
                return message(command.getFlow().getConsumerId());
            }
            default -> {
                return null;
            }
        }
        return FrameWriter.encode(alloc, reply.build());
    }

    /** A MESSAGE frame with a checksum, empty metadata and a small payload. */
    private ByteBuf message(long consumerId) {
        ByteBuf command = FrameWriter.encode(
                alloc,
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.MESSAGE)
                        .setMessage(CommandMessage.newBuilder().setConsumerId(consumerId))
                        .build());
        int commandSize = command.readableBytes() - 8;
        byte[] payload = {1, 2, 3};
        ByteBuf frame = alloc.buffer(command.readableBytes() + 10 + payload.length);
        frame.writeInt(4 + commandSize + 10 + payload.length);
        frame.writeBytes(command, 4, commandSize + 4);
        frame.writeShort(0x0e01).writeInt(0).writeInt(0).writeBytes(payload);
        command.release();
        return frame;
    }
}
