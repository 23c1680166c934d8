package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.kafka.testing.KeepFrames;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import io.sluice.testing.LeakCheck;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

@ExtendWith(LeakCheck.class)
class KafkaFrameDecoderTest {

    @Test
    void emitsWholeFramesAsTheOriginalBytesWhateverTheReadBoundaries() {
        ByteBuf first = metadataRequest();
        ByteBuf second = produceRequest();
        byte[] firstBytes = ByteBufUtil.getBytes(first);
        byte[] secondBytes = ByteBufUtil.getBytes(second);
        for (int chunk = 1; chunk <= firstBytes.length + secondBytes.length; chunk += 3) {
            ByteBuf stream = Unpooled.wrappedBuffer(first.retainedDuplicate(), second.retainedDuplicate());
            EmbeddedChannel channel = new EmbeddedChannel(new KafkaFrameDecoder(1024), new KeepFrames());
            while (stream.isReadable()) {
                channel.writeInbound(stream.readRetainedSlice(Math.min(chunk, stream.readableBytes())));
            }
            stream.release();
            ByteBuf out1 = channel.readInbound();
            ByteBuf out2 = channel.readInbound();
            assertArrayEquals(firstBytes, ByteBufUtil.getBytes(out1), "chunks of " + chunk);
            assertArrayEquals(secondBytes, ByteBufUtil.getBytes(out2), "chunks of " + chunk);
            assertNull(channel.readInbound());
            out1.release();
            out2.release();
            assertFalse(channel.finishAndReleaseAll());
        }
        first.release();
        second.release();
    }

    @Test
    void acceptsAFrameOfExactlyTheLimitAndAnEmptyOne() {
        EmbeddedChannel channel = new EmbeddedChannel(new KafkaFrameDecoder(64), new KeepFrames());
        channel.writeInbound(Unpooled.buffer().writeInt(64).writeZero(64).writeInt(0));
        ByteBuf full = channel.readInbound();
        ByteBuf empty = channel.readInbound();
        assertEquals(68, full.readableBytes());
        assertEquals(4, empty.readableBytes());
        full.release();
        empty.release();
        channel.finishAndReleaseAll();
    }

    @Test
    void rejectsASizeOverTheLimitBeforeBufferingTheBody() {
        EmbeddedChannel channel = new EmbeddedChannel(new KafkaFrameDecoder(64), new KeepFrames());
        // Only the size field arrives: the decision cannot wait for the 65 bytes it announces.
        MalformedFrameException e = assertThrows(
                MalformedFrameException.class,
                () -> channel.writeInbound(Unpooled.buffer().writeInt(65)));
        assertEquals("frame_too_large", e.reason());
        channel.finishAndReleaseAll();
    }

    @Test
    void rejectsATwoGibibyteSizeWithTheDefaultLimit() {
        EmbeddedChannel channel = new EmbeddedChannel(
                new KafkaFrameDecoder(KafkaFrameDecoder.DEFAULT_MAX_REQUEST_SIZE), new KeepFrames());
        MalformedFrameException e = assertThrows(
                MalformedFrameException.class,
                () -> channel.writeInbound(
                        Unpooled.buffer().writeInt(Integer.MAX_VALUE).writeInt(7)));
        assertEquals("frame_too_large", e.reason());
        channel.finishAndReleaseAll();
    }

    @Test
    void rejectsANegativeSize() {
        EmbeddedChannel channel = new EmbeddedChannel(new KafkaFrameDecoder(64), new KeepFrames());
        MalformedFrameException e = assertThrows(
                MalformedFrameException.class,
                () -> channel.writeInbound(Unpooled.buffer().writeInt(0x80000000)));
        assertEquals("bad_length", e.reason());
        channel.finishAndReleaseAll();
    }

    @Test
    void holdsFramesWhilePausedAndEmitsThemOnResume() {
        KafkaFrameDecoder decoder = new KafkaFrameDecoder(64);
        EmbeddedChannel channel = new EmbeddedChannel(decoder, new KeepFrames());
        decoder.pause();
        channel.writeInbound(
                Unpooled.buffer().writeInt(2).writeShort(7).writeInt(1).writeByte(8));
        assertNull(channel.readInbound());
        decoder.resume();
        channel.writeInbound(Unpooled.EMPTY_BUFFER);
        ByteBuf first = channel.readInbound();
        ByteBuf second = channel.readInbound();
        assertEquals(7, first.getShort(4));
        assertEquals(8, second.getByte(4));
        first.release();
        second.release();
        channel.finishAndReleaseAll();
    }

    @Test
    void lendsEachFrameInPlaceInTheBufferItWasReadInto() {
        ByteBuf read = Unpooled.buffer().writeInt(2).writeShort(7).writeInt(1).writeByte(8);
        List<String> lent = new ArrayList<>();
        EmbeddedChannel channel = new EmbeddedChannel(new KafkaFrameDecoder(64), new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                FrameView frame = (FrameView) msg;
                lent.add((frame.buffer() == read) + "@" + frame.index() + "+" + frame.length());
            }
        });
        channel.writeInbound(read);
        assertEquals(List.of("true@0+6", "true@6+5"), lent, "no copy and no slice: the read buffer, by index");
        assertEquals(0, read.refCnt(), "released once its frames were lent");
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void bytesOfFramesKeptFromAReadAreNeverWrittenOverByTheNextRead() {
        ByteBuf first = metadataRequest();
        ByteBuf second = produceRequest();
        byte[] firstBytes = ByteBufUtil.getBytes(first);
        byte[] secondBytes = ByteBufUtil.getBytes(second);
        ByteBuf read = Unpooled.buffer(1024).writeBytes(first).writeBytes(second, 0, 5);
        first.release();
        EmbeddedChannel channel = new EmbeddedChannel(new KafkaFrameDecoder(1024), new KeepFrames());
        channel.writeInbound(read);
        ByteBuf kept = channel.readInbound();
        // The rest of the second frame arrives while the first is still kept, in the same buffer.
        channel.writeInbound(second.retainedSlice(5, second.readableBytes() - 5));
        second.release();

        assertArrayEquals(firstBytes, ByteBufUtil.getBytes(kept));
        ByteBuf out2 = channel.readInbound();
        assertArrayEquals(secondBytes, ByteBufUtil.getBytes(out2));
        kept.release();
        out2.release();
        channel.finishAndReleaseAll();
    }

    private static ByteBuf metadataRequest() {
        return KafkaFrames.request(new MetadataRequestData().setTopics(null), (short) 12, 1, "client");
    }

    private static ByteBuf produceRequest() {
        return KafkaFrames.request(new ProduceRequestData().setAcks((short) -1), (short) 11, 2, "client");
    }

    @Test
    void refusesALimitThatCannotBeAFrameSize() {
        assertThrows(IllegalArgumentException.class, () -> new KafkaFrameDecoder(0));
        assertThrows(IllegalArgumentException.class, () -> new KafkaFrameDecoder(Integer.MAX_VALUE));
    }
}
