package io.sluice.pulsar.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import io.sluice.relay.connection.FrameDecoder;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Pulsar's frames through the relay's {@link FrameDecoder}: whole frames as they came, and
 * {@link PulsarFrameRule}'s checks. What the decoder does whatever the rule (bytes lent never
 * moved, a buffer that does not grow without bound) is the relay's {@code FrameDecoderTest}.
 */
class PulsarFrameRuleTest {

    @Test
    void emitsWholeFramesAsTheOriginalBytesWhateverTheReadBoundaries() {
        ByteBuf first = TestFrames.send(1, 10, 1, 100);
        ByteBuf second = TestFrames.send(2, 20, 3, 7);
        byte[] firstBytes = ByteBufUtil.getBytes(first);
        byte[] secondBytes = ByteBufUtil.getBytes(second);
        ByteBuf stream = Unpooled.wrappedBuffer(first, second);
        EmbeddedChannel channel = new EmbeddedChannel(PulsarFrameRule.newDecoder(), new KeepFrames());
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
        EmbeddedChannel channel = new EmbeddedChannel(
                new FrameDecoder(PulsarFrameRule.RULE, PulsarFrameRule.maxFrameSize(1024)), new KeepFrames());
        ByteBuf header = Unpooled.buffer()
                .writeInt(1024 + PulsarFrameRule.FRAME_PADDING + 1)
                .writeInt(10);
        MalformedFrameException e = assertThrows(MalformedFrameException.class, () -> channel.writeInbound(header));
        assertEquals("frame_too_large", e.reason());
        channel.finishAndReleaseAll();
    }

    @Test
    void acceptsAFrameOfExactlyTheLimit() {
        FrameDecoder decoder = new FrameDecoder(PulsarFrameRule.RULE, PulsarFrameRule.maxFrameSize(1024));
        EmbeddedChannel channel = new EmbeddedChannel(decoder, new KeepFrames());
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
        EmbeddedChannel channel = new EmbeddedChannel(PulsarFrameRule.newDecoder(), new KeepFrames());
        ByteBuf header = Unpooled.buffer().writeInt(0x80000000).writeInt(10);
        assertThrows(MalformedFrameException.class, () -> channel.writeInbound(header));
        channel.finishAndReleaseAll();
    }

    @Test
    void rejectsSizesThatCannotHoldTheirCommand() {
        EmbeddedChannel tiny = new EmbeddedChannel(PulsarFrameRule.newDecoder(), new KeepFrames());
        MalformedFrameException e = assertThrows(
                MalformedFrameException.class,
                () -> tiny.writeInbound(Unpooled.buffer().writeInt(3).writeInt(0)));
        assertEquals("bad_length", e.reason());
        tiny.finishAndReleaseAll();

        EmbeddedChannel overlong = new EmbeddedChannel(PulsarFrameRule.newDecoder(), new KeepFrames());
        assertThrows(
                MalformedFrameException.class,
                () -> overlong.writeInbound(Unpooled.buffer().writeInt(20).writeInt(17)));
        overlong.finishAndReleaseAll();
    }

    @Test
    void appliesTheBrokersMaxMessageSize() {
        assertEquals(100 + PulsarFrameRule.FRAME_PADDING, PulsarFrameRule.maxFrameSize(100));
        assertEquals(
                PulsarFrameRule.maxFrameSize(PulsarFrameRule.DEFAULT_MAX_MESSAGE_SIZE),
                PulsarFrameRule.newDecoder().maxFrameSize());
        assertEquals(
                Integer.MAX_VALUE - 4,
                PulsarFrameRule.maxFrameSize(Integer.MAX_VALUE),
                "a frame size that fits an int");
        assertThrows(IllegalArgumentException.class, () -> PulsarFrameRule.maxFrameSize(0));
    }

    /** Keeps each lent frame as a buffer of its own, as a handler that holds frames does. */
    private static final class KeepFrames extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.fireChannelRead(((FrameView) msg).retainedSlice());
        }
    }
}
