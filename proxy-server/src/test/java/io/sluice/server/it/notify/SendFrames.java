package io.sluice.server.it.notify;

import com.google.protobuf.CodedOutputStream;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandSend;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.CRC32C;

/**
 * SEND frames as a Pulsar client library writes them, one message each:
 * {@code [totalSize][commandSize][BaseCommand][0x0e01][crc32c][metadataSize][MessageMetadata][payload]},
 * the CRC32C covering everything from {@code metadataSize} on.
 */
final class SendFrames {

    private static final int MAGIC_CRC32C = 0x0e01;

    private SendFrames() {}

    /** A new frame from {@code alloc}; the caller owns it. */
    static ByteBuf send(
            ByteBufAllocator alloc,
            long producerId,
            String producerName,
            long sequenceId,
            long publishTimeMillis,
            byte[] payload) {
        byte[] command = BaseCommand.newBuilder()
                .setType(BaseCommand.Type.SEND)
                .setSend(CommandSend.newBuilder()
                        .setProducerId(producerId)
                        .setSequenceId(sequenceId)
                        .setNumMessages(1))
                .build()
                .toByteArray();
        byte[] metadata = metadata(producerName, sequenceId, publishTimeMillis);
        int totalSize = 4 + command.length + 2 + 4 + 4 + metadata.length + payload.length;
        ByteBuf frame = alloc.buffer(4 + totalSize);
        frame.writeInt(totalSize).writeInt(command.length).writeBytes(command).writeShort(MAGIC_CRC32C);
        int checksumIndex = frame.writerIndex();
        frame.writeInt(0);
        int checksummedFrom = frame.writerIndex();
        frame.writeInt(metadata.length).writeBytes(metadata).writeBytes(payload);
        CRC32C crc = new CRC32C();
        crc.update(frame.nioBuffer(checksummedFrom, frame.writerIndex() - checksummedFrom));
        frame.setInt(checksumIndex, (int) crc.getValue());
        return frame;
    }

    /**
     * MessageMetadata with the three fields the protocol requires: producer_name 1, sequence_id 2,
     * publish_time 3. Written field by field: Sluice's proto subset has no MessageMetadata.
     */
    private static byte[] metadata(String producerName, long sequenceId, long publishTimeMillis) {
        byte[] bytes = new byte
                [CodedOutputStream.computeStringSize(1, producerName)
                        + CodedOutputStream.computeUInt64Size(2, sequenceId)
                        + CodedOutputStream.computeUInt64Size(3, publishTimeMillis)];
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        try {
            out.writeString(1, producerName);
            out.writeUInt64(2, sequenceId);
            out.writeUInt64(3, publishTimeMillis);
            out.checkNoSpaceLeft();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes;
    }
}
