package io.sluice.pulsar.codec;

import io.sluice.relay.MalformedFrameException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class FrameDecoderTest {

    @Test
    void emitsWholeFramesAsTheOriginalBytesWhateverTheReadBoundaries() {
        ByteBuf first = TestFrames.send(1, 10, 1, 100);
        ByteBuf second = TestFrames.send(2, 20, 3, 7);
        byte[] firstBytes = ByteBufUtil.getBytes(first);
        byte[] secondBytes = ByteBufUtil.getBytes(second);
        ByteBuf stream = Unpooled.wrappedBuffer(first, second);
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder());
        while (stream.isReadable()) {
            channel.writeInbound(stream.readRetainedSlice(Math.min(13, stream.readableBytes())));
        }
        stream.release();

        ByteBuf out1 = channel.readInbound();
        ByteBuf out2 = channel.readInbound();
        assertArrayEquals(firstBytes, ByteBufUtil.getBytes(out1));
        assertArrayEquals(secondBytes, ByteBufUtil.getBytes(out2));
        assertNull(channel.readInbound());
        out1.release();
        out2.release();
        channel.finishAndReleaseAll();
    }

    @Test
    void rejectsAFrameOverTheMaxMessageSizePlusPadding() {
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(1024));
        ByteBuf header = Unpooled.buffer().writeInt(1024 + FrameDecoder.FRAME_PADDING + 1).writeInt(10);
        MalformedFrameException e = assertThrows(MalformedFrameException.class, () -> channel.writeInbound(header));
        assertEquals("frame_too_large", e.reason());
        channel.finishAndReleaseAll();
    }

    @Test
    void acceptsAFrameOfExactlyTheLimit() {
        FrameDecoder decoder = new FrameDecoder(1024);
        EmbeddedChannel channel = new EmbeddedChannel(decoder);
        int total = decoder.maxFrameSize();
        ByteBuf frame = Unpooled.buffer(4 + total).writeInt(total).writeInt(10).writeZero(total - 4);
        channel.writeInbound(frame);
        ByteBuf out = channel.readInbound();
        assertEquals(4 + total, out.readableBytes());
        out.release();
        channel.finishAndReleaseAll();
    }

    @Test
    void rejectsATwoGibibyteDeclaredLengthBeforeBufferingIt() {
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder());
        ByteBuf header = Unpooled.buffer().writeInt(0x80000000).writeInt(10);
        assertThrows(MalformedFrameException.class, () -> channel.writeInbound(header));
        channel.finishAndReleaseAll();
    }

    @Test
    void rejectsSizesThatCannotHoldTheirCommand() {
        EmbeddedChannel tiny = new EmbeddedChannel(new FrameDecoder());
        MalformedFrameException e = assertThrows(MalformedFrameException.class,
                () -> tiny.writeInbound(Unpooled.buffer().writeInt(3).writeInt(0)));
        assertEquals("bad_length", e.reason());
        tiny.finishAndReleaseAll();

        EmbeddedChannel overlong = new EmbeddedChannel(new FrameDecoder());
        assertThrows(MalformedFrameException.class,
                () -> overlong.writeInbound(Unpooled.buffer().writeInt(20).writeInt(17)));
        overlong.finishAndReleaseAll();
    }

    @Test
    void appliesTheBrokersMaxMessageSize() {
        FrameDecoder decoder = new FrameDecoder();
        decoder.setMaxMessageSize(100);
        assertEquals(100 + FrameDecoder.FRAME_PADDING, decoder.maxFrameSize());
        assertThrows(IllegalArgumentException.class, () -> decoder.setMaxMessageSize(0));
    }
}
