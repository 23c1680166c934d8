package io.sluice.pulsar.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandMessage;
import io.sluice.pulsar.codec.proto.CommandSend;
import io.sluice.pulsar.codec.proto.CommandSendError;
import io.sluice.pulsar.codec.proto.CommandSendReceipt;
import io.sluice.pulsar.codec.proto.CommandThrottleProducerReceipt;
import io.sluice.pulsar.codec.proto.MessageIdData;
import io.sluice.pulsar.codec.proto.ServerError;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class FrameReaderTest {

    @Test
    void readsEverySendFieldTheProxyUsesWithoutTouchingThePayload() {
        BaseCommand command = BaseCommand.newBuilder()
                .setType(BaseCommand.Type.SEND)
                .setSend(CommandSend.newBuilder()
                        .setProducerId(300)
                        .setSequenceId(1L << 40)
                        .setNumMessages(25)
                        .setHighestSequenceId((1L << 40) + 24)
                        .setIsChunk(true))
                .build();
        ByteBuf frame = TestFrames.withPayload(command, 1000);
        int readerIndex = frame.readerIndex();
        SendFields fields = new SendFields();

        assertEquals(6, FrameReader.type(FrameView.of(frame)));
        FrameReader.readSend(FrameView.of(frame), fields);

        assertEquals(300, fields.producerId);
        assertEquals(1L << 40, fields.sequenceId);
        assertEquals(25, fields.numMessages);
        assertEquals((1L << 40) + 24, fields.highestSequenceId);
        assertTrue(fields.chunk);
        assertEquals(1000, FrameReader.payloadSize(FrameView.of(frame)));
        assertEquals(readerIndex, frame.readerIndex());
        frame.release();
    }

    @Test
    void sendDefaultsToOneMessage() {
        ByteBuf frame = TestFrames.withPayload(
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.SEND)
                        .setSend(CommandSend.newBuilder().setProducerId(1).setSequenceId(2))
                        .build(),
                0);
        SendFields fields = new SendFields();
        FrameReader.readSend(FrameView.of(frame), fields);
        assertEquals(1, fields.numMessages);
        assertFalse(fields.chunk);
        frame.release();
    }

    @Test
    void readsTheProducerOfReceiptsAndSendErrors() {
        ByteBuf receipt = TestFrames.withPayload(
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.SEND_RECEIPT)
                        .setSendReceipt(CommandSendReceipt.newBuilder()
                                .setProducerId(4)
                                .setSequenceId(9)
                                .setHighestSequenceId(12))
                        .build(),
                0);
        assertEquals(4, FrameReader.readFirstId(FrameView.of(receipt), BaseCommand.Type.SEND_RECEIPT_VALUE));
        receipt.release();

        ByteBuf error = FrameWriter.sendError(Unpooled.buffer().alloc(), 5, 77, ServerError.NotAllowedError, "no");
        assertEquals(5, FrameReader.readFirstId(FrameView.of(error), BaseCommand.Type.SEND_ERROR_VALUE));
        CommandSendError parsed = FrameReader.parse(FrameView.of(error)).getSendError();
        assertEquals(ServerError.NotAllowedError, parsed.getError());
        error.release();
    }

    @Test
    void findsTheTypeWhenItIsNotTheFirstFieldOrNeedsTwoVarintBytes() {
        // Field 201 (receipt) written before field 1: a legal, if unusual, encoding.
        byte[] nested = CommandThrottleProducerReceipt.newBuilder()
                .setRequestId(3)
                .build()
                .toByteArray();
        ByteBuf cmd = Unpooled.buffer();
        cmd.writeByte(0xca)
                .writeByte(0x0c)
                .writeByte(nested.length)
                .writeBytes(nested); // tag of field 201, wire type 2
        cmd.writeByte(0x08).writeByte(0xc9).writeByte(0x01); // type = 201
        ByteBuf frame = Unpooled.buffer()
                .writeInt(4 + cmd.readableBytes())
                .writeInt(cmd.readableBytes())
                .writeBytes(cmd);
        assertEquals(201, FrameReader.type(FrameView.of(frame)));
        assertEquals(
                BaseCommand.Type.THROTTLE_PRODUCER_RECEIPT,
                FrameReader.parse(FrameView.of(frame)).getType());
        cmd.release();
        frame.release();
    }

    @Test
    void malformedCommandsRaiseMalformedFrameExceptionOnly() {
        ByteBuf truncatedVarint = frameOf(new byte[] {0x08, (byte) 0xff});
        assertThrows(MalformedFrameException.class, () -> FrameReader.type(FrameView.of(truncatedVarint)));
        truncatedVarint.release();

        ByteBuf sendWithoutBody = frameOf(new byte[] {0x08, 0x06});
        assertThrows(
                MalformedFrameException.class,
                () -> FrameReader.readSend(FrameView.of(sendWithoutBody), new SendFields()));
        sendWithoutBody.release();

        ByteBuf badLength = frameOf(new byte[] {0x08, 0x06, 0x32, 0x7f, 0x08});
        assertThrows(
                MalformedFrameException.class, () -> FrameReader.readSend(FrameView.of(badLength), new SendFields()));
        assertThrows(MalformedFrameException.class, () -> FrameReader.parse(FrameView.of(badLength)));
        badLength.release();
    }

    @Test
    void randomCommandBytesNeverEscapeAsAnythingButMalformedFrameException() {
        Random random = new Random(42);
        SendFields fields = new SendFields();
        for (int i = 0; i < 20_000; i++) {
            byte[] bytes = new byte[1 + random.nextInt(40)];
            random.nextBytes(bytes);
            if (random.nextBoolean()) {
                bytes[0] = 0x08;
            }
            ByteBuf frame = frameOf(bytes);
            try {
                FrameReader.type(FrameView.of(frame));
                FrameReader.readSend(FrameView.of(frame), fields);
            } catch (MalformedFrameException expected) {
                // the only failure allowed
            }
            try {
                FrameReader.parse(FrameView.of(frame));
            } catch (MalformedFrameException expected) {
                // likewise
            }
            frame.release();
        }
    }

    @Test
    void aLentFrameIsReadWhereverItLiesInItsBuffer() {
        ByteBuf first = TestFrames.send(1, 10, 3, 50);
        ByteBuf second = TestFrames.send(2, 20, 5, 70);
        ByteBuf read = Unpooled.buffer().writeBytes(first).writeBytes(second);
        FrameView lent = new FrameView().lend(read, first.writerIndex(), second.writerIndex());
        SendFields fields = new SendFields();

        assertEquals(BaseCommand.Type.SEND_VALUE, FrameReader.type(lent));
        FrameReader.readSend(lent, fields);

        assertEquals(2, fields.producerId);
        assertEquals(20, fields.sequenceId);
        assertEquals(5, fields.numMessages);
        assertEquals(70, FrameReader.payloadSize(lent));
        assertEquals(2, FrameReader.parse(lent).getSend().getProducerId());
        assertEquals(0, read.readerIndex());
        first.release();
        second.release();
        read.release();
    }

    @Test
    void readingASendAndItsReceiptInPlaceAllocatesNothing() {
        assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
        // Buffers of their own bytes: a leak-aware buffer would record each read.
        ByteBuf send = TestFrames.send(300, 1L << 40, 25, 100);
        ByteBuf receipt = TestFrames.receipt(300, 1L << 40);
        FrameView lentSend = FrameView.of(Unpooled.wrappedBuffer(ByteBufUtil.getBytes(send)));
        FrameView lentReceipt = FrameView.of(Unpooled.wrappedBuffer(ByteBufUtil.getBytes(receipt)));
        send.release();
        receipt.release();
        SendFields fields = new SendFields();
        int calls = 20_000;
        long read = 0;
        for (int i = 0; i < calls; i++) {
            read += readSendAndReceipt(lentSend, lentReceipt, fields);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < calls; i++) {
            read += readSendAndReceipt(lentSend, lentReceipt, fields);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertEquals(0, allocated / calls, "bytes allocated per SEND and receipt read");
        assertEquals(
                2L * calls * (BaseCommand.Type.SEND_VALUE + 100 + 25 + 300), read, "type, payload, count, producer");
    }

    /** What the proxy reads of a SEND and its receipt, summed so that no read can be left out. */
    private static long readSendAndReceipt(FrameView send, FrameView receipt, SendFields fields) {
        long read = FrameReader.read(send, CLIENT_COMMAND).type() + FrameReader.payloadSize(send);
        FrameReader.readSend(CLIENT_COMMAND, fields);
        read += fields.numMessages;
        FrameCommand answer = FrameReader.read(receipt, UPSTREAM_COMMAND);
        return read + FrameReader.readFirstId(answer, answer.type());
    }

    private static final FrameCommand CLIENT_COMMAND = new FrameCommand();
    private static final FrameCommand UPSTREAM_COMMAND = new FrameCommand();

    @Test
    void aCommandReadOnceServesEveryReaderAsTheFrameItselfWould() {
        ByteBuf send = TestFrames.send(7, 1L << 40, 25, 100);
        ByteBuf receipt = TestFrames.receipt(7, 99);
        FrameCommand command = new FrameCommand();
        SendFields once = new SendFields();
        SendFields again = new SendFields();
        try {
            FrameReader.readSend(FrameReader.read(FrameView.of(send), command), once);
            FrameReader.readSend(FrameView.of(send), again);
            assertEquals(BaseCommand.Type.SEND_VALUE, command.type());
            assertEquals(List.of(7L, 1L << 40, 25), List.of(once.producerId, once.sequenceId, once.numMessages));
            assertEquals(
                    List.of(again.producerId, again.sequenceId, again.numMessages),
                    List.of(once.producerId, once.sequenceId, once.numMessages));

            FrameReader.read(FrameView.of(receipt), command);
            assertEquals(BaseCommand.Type.SEND_RECEIPT_VALUE, command.type());
            assertEquals(7L, FrameReader.readFirstId(command, BaseCommand.Type.SEND_RECEIPT_VALUE));
        } finally {
            send.release();
            receipt.release();
        }
    }

    @Test
    void aCommandWhoseOnlyNestedCommandIsNotTheOneItsTypeNamesIsMalformedWhenRead() {
        // type SEND (6) with a send_receipt (field 7) {producer_id 1}: nothing for the SEND reader.
        byte[] command = HexFormat.of().parseHex("0806" + "3a020801");
        ByteBuf frame = Unpooled.buffer()
                .writeInt(4 + command.length)
                .writeInt(command.length)
                .writeBytes(command);
        try {
            FrameCommand read = FrameReader.read(FrameView.of(frame), new FrameCommand());
            assertThrows(MalformedFrameException.class, () -> FrameReader.readSend(read, new SendFields()));
        } finally {
            frame.release();
        }
    }

    @Test
    void messagesInEntryCountsTheBatchAndLooksNoFurtherThanTheFrame() {
        byte[] metadata = {0x58, 0x07}; // num_messages_in_batch = 7
        ByteBuf message = messageFrame(metadata);
        assertEquals(7, FrameReader.messagesInEntry(FrameView.of(message)));

        // The same frame cut before its metadata ends, with the rest of it right behind in the buffer.
        FrameView cut = new FrameView().lend(message, 0, message.readableBytes() - 1);
        assertThrows(MalformedFrameException.class, () -> FrameReader.messagesInEntry(cut));
        message.release();

        ByteBuf single = messageFrame(new byte[0]);
        assertEquals(1, FrameReader.messagesInEntry(FrameView.of(single)), "a message without the field is one");
        single.release();
    }

    @Test
    void messagesInSendReadsTheBatchsOwnCountWhateverTheCommandDeclares() {
        ByteBuf underDeclared = TestFrames.batchSend(1, 0, 1, 100, 600);
        assertEquals(100, FrameReader.messagesInSend(FrameView.of(underDeclared)));
        underDeclared.release();
        ByteBuf overDeclared = TestFrames.batchSend(1, 0, 2_000_000_000, 1, 10);
        assertEquals(
                1, FrameReader.messagesInSend(FrameView.of(overDeclared)), "num_messages is only the client's word");
        overDeclared.release();

        // num_messages_in_batch twice: the last counts
        ByteBuf withoutChecksum = sendWithMetadata(new byte[] {0x58, 0x05, 0x58, 0x09}, 54);
        assertEquals(9, FrameReader.messagesInSend(FrameView.of(withoutChecksum)));
        FrameView cut = new FrameView().lend(withoutChecksum, 0, withoutChecksum.readableBytes() - 55);
        assertEquals(1, FrameReader.messagesInSend(cut), "metadata past the frame is unreadable: one entry");
        withoutChecksum.release();
    }

    @Test
    void aBatchClaimingMoreMessagesThanItsBytesHoldIsMalformed() {
        ByteBuf lying = TestFrames.batchSend(1, 0, 1, 2_000_000_000, 10);
        MalformedFrameException thrown =
                assertThrows(MalformedFrameException.class, () -> FrameReader.messagesInSend(FrameView.of(lying)));
        assertEquals("bad_send_metadata", thrown.reason());
        lying.release();

        ByteBuf justEnough = sendWithMetadata(new byte[] {0x58, 0x0a}, 60);
        assertEquals(10, FrameReader.messagesInSend(FrameView.of(justEnough)), "6 bytes a message");
        justEnough.release();
        ByteBuf oneShort = sendWithMetadata(new byte[] {0x58, 0x0a}, 59);
        assertThrows(MalformedFrameException.class, () -> FrameReader.messagesInSend(FrameView.of(oneShort)));
        oneShort.release();
    }

    @Test
    void aCompressedBatchIsBoundedByTheUncompressedSizeItDeclares() {
        // compression LZ4 (field 8 = 1), uncompressed_size 600 (field 9), 100 messages, 20 compressed bytes
        byte[] metadata = {0x40, 0x01, 0x48, (byte) 0xd8, 0x04, 0x58, 0x64};
        ByteBuf compressed = sendWithMetadata(metadata, 20);
        assertEquals(100, FrameReader.messagesInSend(FrameView.of(compressed)));
        compressed.release();
        byte[] tooSmall = {0x40, 0x01, 0x48, 0x64, 0x58, 0x64}; // uncompressed_size 100
        ByteBuf lying = sendWithMetadata(tooSmall, 20);
        assertThrows(MalformedFrameException.class, () -> FrameReader.messagesInSend(FrameView.of(lying)));
        lying.release();
    }

    @Test
    void aBatchOfNoMessagesIsChargedAsOne() {
        ByteBuf empty = sendWithMetadata(new byte[] {0x58, 0x00}, 0);
        assertEquals(1, FrameReader.messagesInSend(FrameView.of(empty)));
        empty.release();
    }

    /** A SEND without checksum: command, {@code metadata}, {@code payloadSize} zero bytes. */
    private static ByteBuf sendWithMetadata(byte[] metadata, int payloadSize) {
        byte[] command = BaseCommand.newBuilder()
                .setType(BaseCommand.Type.SEND)
                .setSend(CommandSend.newBuilder().setProducerId(1).setSequenceId(0))
                .build()
                .toByteArray();
        return Unpooled.buffer()
                .writeInt(4 + command.length + 4 + metadata.length + payloadSize)
                .writeInt(command.length)
                .writeBytes(command)
                .writeInt(metadata.length)
                .writeBytes(metadata)
                .writeZero(payloadSize);
    }

    /** A MESSAGE frame as a broker writes it: command, checksum, {@code metadata}, no payload. */
    private static ByteBuf messageFrame(byte[] metadata) {
        byte[] command = BaseCommand.newBuilder()
                .setType(BaseCommand.Type.MESSAGE)
                .setMessage(CommandMessage.newBuilder()
                        .setConsumerId(3)
                        .setMessageId(MessageIdData.newBuilder().setLedgerId(1).setEntryId(2)))
                .build()
                .toByteArray();
        return Unpooled.buffer()
                .writeInt(4 + command.length + 10 + metadata.length)
                .writeInt(command.length)
                .writeBytes(command)
                .writeShort(0x0e01)
                .writeInt(0)
                .writeInt(metadata.length)
                .writeBytes(metadata);
    }

    private static ByteBuf frameOf(byte[] command) {
        return Unpooled.buffer()
                .writeInt(4 + command.length)
                .writeInt(command.length)
                .writeBytes(command);
    }
}
