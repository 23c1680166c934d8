package io.sluice.pulsar.codec;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import io.sluice.testing.ByteMutator;
import io.sluice.testing.FuzzCorpus;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Arbitrary bytes through the relay's frame decoder with {@link PulsarFrameRule} and every {@link FrameReader} method: the only
 * exception that may escape is {@link MalformedFrameException}, readers leave a frame's indexes
 * alone and read nothing outside it, the fast type reader agrees with protobuf, and every buffer is
 * released.
 *
 * <p>The seed corpus ({@code FrameFuzzTestInputs/decodeAndRead}) holds frames a real
 * pulsar-client and broker exchanged (see CorpusCaptureIT) and the inputs of bugs found.
 */
@ExtendWith(LeakCheck.class)
class FrameFuzzTest {

    private static final int GENERATED_INPUTS = 4_000;

    @FuzzTest(maxDuration = "10m")
    void decodeAndRead(byte[] input) {
        UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
        EmbeddedChannel channel = new EmbeddedChannel(PulsarFrameRule.newDecoder(), new ReadEveryField());
        channel.config().setAllocator(alloc);
        // Two reads split where the input says, so partial frames are buffered too.
        int split = input.length == 0 ? 0 : (input[0] & 0xff) % (input.length + 1);
        try {
            channel.writeInbound(alloc.heapBuffer(split).writeBytes(input, 0, split));
            channel.writeInbound(alloc.heapBuffer(input.length - split).writeBytes(input, split, input.length - split));
        } catch (MalformedFrameException expected) {
            // The proxy closes such a connection.
        } finally {
            channel.finishAndReleaseAll();
        }
        assertEquals(0, alloc.metric().usedHeapMemory(), "buffers left unreleased");
    }

    @Test
    void generatedInputs() {
        new ByteMutator(9_2024L, FuzzCorpus.of(FrameFuzzTest.class, "decodeAndRead"))
                .feed(GENERATED_INPUTS, input -> decodeAndRead(input));
    }

    /**
     * Runs every reader on each frame, as the proxy would on the frames of either side: on the frame
     * as the decoder lends it, and on the same bytes in a buffer of their own between other bytes,
     * which must read the same, so no reader looks outside its frame.
     */
    private static final class ReadEveryField extends ChannelInboundHandlerAdapter {

        /** Bytes before and after the moved frame: 0xff continues any varint that runs past its frame. */
        private static final int PADDING = 7;

        private final SendFields fields = new SendFields();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            FrameView lent = (FrameView) msg;
            ByteBuf read = lent.buffer();
            int reader = read.readerIndex();
            int writer = read.writerIndex();
            ByteBuf own = ctx.alloc().heapBuffer(PADDING + lent.length() + PADDING);
            try {
                own.writeBytes(padding())
                        .writeBytes(read, lent.index(), lent.length())
                        .writeBytes(padding())
                        .setIndex(PADDING, PADDING + lent.length());
                assertEquals(readAll(lent), readAll(FrameView.of(own)), "a frame reads the same wherever it lies");
                assertEquals(reader, read.readerIndex(), "reader index moved");
                assertEquals(writer, read.writerIndex(), "writer index moved");
                assertEquals(PADDING, own.readerIndex(), "reader index moved");
                assertEquals(PADDING + lent.length(), own.writerIndex(), "writer index moved");
            } finally {
                own.release();
            }
        }

        /** What every reader makes of {@code frame}, null for each that found it malformed. */
        private List<Object> readAll(FrameView frame) {
            int payload = FrameReader.payloadSize(frame);
            assertTrue(payload >= 0, "negative payload size");
            Integer type = quietly(() -> FrameReader.type(frame));
            BaseCommand parsed = quietly(() -> FrameReader.parse(frame));
            if (type != null && parsed != null && parsed.hasType()) {
                // What the proxy routes on must be what the broker acts on.
                assertEquals(parsed.getType().getNumber(), (int) type, "type differs from protobuf's");
            }
            return Arrays.asList(
                    payload,
                    type,
                    parsed,
                    read(() -> FrameReader.readSend(frame, fields)),
                    quietly(() -> FrameReader.readFirstId(frame, BaseCommand.Type.SEND_RECEIPT_VALUE)),
                    quietly(() -> FrameReader.readFirstId(frame, BaseCommand.Type.SEND_ERROR_VALUE)),
                    quietly(() -> FrameReader.readFirstId(frame, BaseCommand.Type.MESSAGE_VALUE)),
                    quietly(() -> readFirstIdOnce(frame)),
                    quietly(() -> FrameReader.messagesInEntry(frame)),
                    sendCount(frame));
        }

        /** The first id of the nested command the frame's type names, read as the connection reads it: its command once. */
        private static Long readFirstIdOnce(FrameView frame) {
            FrameCommand command = FrameReader.read(frame, new FrameCommand());
            return FrameReader.readFirstId(command, command.type());
        }

        /**
         * A SEND's own count: at least 1, no more than the frame's bytes (or the uncompressed size it
         * declares) can hold, and never a failure of Sluice's.
         */
        private static Integer sendCount(FrameView frame) {
            Integer count = quietly(() -> FrameReader.messagesInSend(frame));
            assertTrue(count == null || count >= 1, "message count below 1: " + count);
            return count;
        }

        private static byte[] padding() {
            byte[] bytes = new byte[PADDING];
            Arrays.fill(bytes, (byte) 0xff);
            return bytes;
        }

        /** What a reader into {@link #fields} read, or null when it found the frame malformed. */
        private String read(Runnable reader) {
            return quietly(() -> {
                reader.run();
                return fields.producerId + "/" + fields.sequenceId + "/" + fields.numMessages + "/"
                        + fields.highestSequenceId + "/" + fields.chunk;
            });
        }

        private interface Read<T> {
            T run();
        }

        /** The reader's result, or null when it found the frame malformed. */
        private static <T> T quietly(Read<T> read) {
            try {
                return read.run();
            } catch (MalformedFrameException malformed) {
                return null;
            }
        }
    }
}
