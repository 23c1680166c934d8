package io.sluice.pulsar.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandSend;
import io.sluice.pulsar.codec.proto.CommandSendReceipt;

/** Frames built the way a Pulsar client or broker encodes them, for tests. */
public final class TestFrames {

    private TestFrames() {}

    /** A SEND frame with a fake checksum, metadata and {@code payloadSize} payload bytes. */
    public static ByteBuf send(long producerId, long sequenceId, int numMessages, int payloadSize) {
        BaseCommand command = BaseCommand.newBuilder()
                .setType(BaseCommand.Type.SEND)
                .setSend(CommandSend.newBuilder()
                        .setProducerId(producerId)
                        .setSequenceId(sequenceId)
                        .setNumMessages(numMessages))
                .build();
        return withPayload(command, payloadSize);
    }

    /**
     * A SEND as a batching client writes it: checksum magic, a (fake) checksum and metadata whose
     * num_messages_in_batch is {@code inBatch}, while the command declares {@code declared}.
     */
    public static ByteBuf batchSend(long producerId, long sequenceId, int declared, int inBatch, int payloadSize) {
        return withBatch(
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.SEND)
                        .setSend(CommandSend.newBuilder()
                                .setProducerId(producerId)
                                .setSequenceId(sequenceId)
                                .setNumMessages(declared))
                        .build(),
                inBatch,
                payloadSize);
    }

    /**
     * {@code command} followed by what a batching client writes after it: checksum magic, a (fake)
     * checksum, metadata whose num_messages_in_batch is {@code inBatch}, and {@code payloadSize} bytes.
     */
    public static ByteBuf withBatch(BaseCommand command, int inBatch, int payloadSize) {
        byte[] cmd = command.toByteArray();
        ByteBuf metadata = Unpooled.buffer().writeByte(0x58); // field 11, varint
        for (int value = inBatch; ; value >>>= 7) {
            if ((value & ~0x7f) == 0) {
                metadata.writeByte(value);
                break;
            }
            metadata.writeByte(value & 0x7f | 0x80);
        }
        int metadataSize = metadata.readableBytes();
        ByteBuf buf = Unpooled.buffer();
        buf.writeInt(4 + cmd.length + 10 + metadataSize + payloadSize);
        buf.writeInt(cmd.length);
        buf.writeBytes(cmd);
        buf.writeShort(0x0e01).writeInt(0).writeInt(metadataSize).writeBytes(metadata);
        metadata.release();
        buf.writeZero(payloadSize);
        return buf;
    }

    public static ByteBuf receipt(long producerId, long sequenceId) {
        return FrameWriter.encode(
                Unpooled.buffer().alloc(),
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.SEND_RECEIPT)
                        .setSendReceipt(CommandSendReceipt.newBuilder()
                                .setProducerId(producerId)
                                .setSequenceId(sequenceId))
                        .build());
    }

    /** {@code command} followed by {@code payloadSize} bytes, as one frame. */
    public static ByteBuf withPayload(BaseCommand command, int payloadSize) {
        byte[] cmd = command.toByteArray();
        ByteBuf buf = Unpooled.buffer(8 + cmd.length + payloadSize);
        buf.writeInt(4 + cmd.length + payloadSize);
        buf.writeInt(cmd.length);
        buf.writeBytes(cmd);
        for (int i = 0; i < payloadSize; i++) {
            buf.writeByte(i);
        }
        return buf;
    }
}
