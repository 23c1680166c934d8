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

import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Arbitrary bytes through the relay's frame decoder with {@link PulsarFrameRule} and every {@link FrameReader} method: the only
 * exception that may escape is {@link MalformedFrameException}, readers leave a frame's indexes
 * alone, the fast type reader agrees with protobuf, and every buffer is released.
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
        ByteMutator mutator = new ByteMutator(9_2024L, FuzzCorpus.of(FrameFuzzTest.class, "decodeAndRead"));
        for (int i = 0; i < GENERATED_INPUTS; i++) {
            byte[] input = mutator.next();
            try {
                decodeAndRead(input);
            } catch (RuntimeException | AssertionError e) {
                throw new AssertionError("input " + HexFormat.of().formatHex(input), e);
            }
        }
    }

    /** Runs every reader on each frame, as the proxy would on the frames of either side. */
    private static final class ReadEveryField extends ChannelInboundHandlerAdapter {

        private final SendFields fields = new SendFields();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            FrameView lent = (FrameView) msg;
            ByteBuf frame = lent.retainedSlice();
            try {
                int reader = frame.readerIndex();
                int writer = frame.writerIndex();
                assertTrue(FrameReader.payloadSize(frame) >= 0, "negative payload size");
                assertEquals(FrameReader.payloadSize(frame), FrameReader.payloadSize(lent));
                Integer type = quietly(() -> FrameReader.type(frame));
                assertEquals(type, quietly(() -> FrameReader.type(lent)), "a lent frame reads as its slice");
                BaseCommand parsed = quietly(() -> FrameReader.parse(frame));
                assertEquals(parsed, quietly(() -> FrameReader.parse(lent)));
                if (type != null && parsed != null && parsed.hasType()) {
                    // What the proxy routes on must be what the broker acts on.
                    assertEquals(parsed.getType().getNumber(), (int) type, "type differs from protobuf's");
                }
                assertEquals(
                        read(() -> FrameReader.readSend(frame, fields)),
                        read(() -> FrameReader.readSend(lent, fields)));
                assertEquals(
                        read(() -> FrameReader.readSendReceipt(frame, fields)),
                        read(() -> FrameReader.readSendReceipt(lent, fields)));
                assertEquals(
                        read(() -> FrameReader.readSendError(frame, fields)),
                        read(() -> FrameReader.readSendError(lent, fields)));
                assertEquals(
                        quietly(() -> FrameReader.readFirstId(frame, BaseCommand.Type.MESSAGE_VALUE)),
                        quietly(() -> FrameReader.readFirstId(lent, BaseCommand.Type.MESSAGE_VALUE)));
                assertEquals(
                        quietly(() -> FrameReader.messagesInEntry(frame)),
                        quietly(() -> FrameReader.messagesInEntry(lent)));
                assertEquals(reader, frame.readerIndex(), "reader index moved");
                assertEquals(writer, frame.writerIndex(), "writer index moved");
            } finally {
                frame.release();
            }
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
