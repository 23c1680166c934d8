package io.sluice.relay.connection;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.relay.FrameView;
import io.sluice.relay.IncompleteFrames;
import io.sluice.relay.MalformedFrameException;
import io.sluice.testing.ByteMutator;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Arbitrary bytes through the relay's decoder with {@link FrameRule#INT32_SIZE}, in three reads
 * split where the input says, the decoder paused after a frame and woken again where the input
 * says: the only exception that may escape is {@link MalformedFrameException}; the frames lent,
 * one after the other, are exactly the input's whole frames, each as long as its size says; pausing
 * loses and reorders nothing; every buffer is released, and nothing stays counted against the
 * process's bound on incomplete frames. Pulsar's rule gets the same in
 * {@code FrameFuzzTest}, with its readers.
 */
@ExtendWith(LeakCheck.class)
class FrameDecoderFuzzTest {

    private static final int GENERATED_INPUTS = 4_000;
    private static final int MAX_FRAME_SIZE = 256;

    @FuzzTest(maxDuration = "10m")
    void decode(byte[] input) {
        UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
        IncompleteFrames bound = new IncompleteFrames(64, Duration.ofSeconds(30));
        FrameDecoder decoder = new FrameDecoder(FrameRule.INT32_SIZE, MAX_FRAME_SIZE, bound);
        Lent lent = new Lent(decoder, input.length == 0 ? 0 : input[input.length - 1] & 0x7);
        EmbeddedChannel channel = new EmbeddedChannel(decoder, lent);
        channel.config().setAllocator(alloc);
        int first = input.length == 0 ? 0 : (input[0] & 0xff) * input.length / 256;
        int second = input.length < 2 ? first : first + (input[1] & 0xff) * (input.length - first) / 256;
        int[] cuts = {0, first, second, input.length};
        boolean malformed = false;
        try {
            for (int i = 0; i < 3; i++) {
                channel.writeInbound(alloc.heapBuffer().writeBytes(input, cuts[i], cuts[i + 1] - cuts[i]));
                wake(decoder, channel);
            }
            // Each wake lends a frame at least, until the decoder has none left.
            for (int frames = 0; frames <= input.length / 4; frames++) {
                wake(decoder, channel);
            }
        } catch (MalformedFrameException expected) {
            malformed = true;
        } finally {
            channel.finishAndReleaseAll();
        }
        byte[] whole = wholeFrames(input);
        if (malformed) {
            byte[] got = lent.bytes.toByteArray();
            assertArrayEquals(Arrays.copyOf(whole, got.length), got, "frames lent before the malformed one");
        } else {
            assertArrayEquals(whole, lent.bytes.toByteArray(), "every whole frame, in order");
        }
        assertEquals(0, alloc.metric().usedHeapMemory(), "buffers left unreleased");
        assertEquals(0, bound.bytes(), "bytes still counted against the bound");
    }

    private static void wake(FrameDecoder decoder, EmbeddedChannel channel) {
        decoder.resume();
        channel.runPendingTasks();
        channel.checkException();
    }

    @Test
    void generatedInputs() {
        new ByteMutator(21_2026L, seeds()).feed(GENERATED_INPUTS, input -> decode(input));
    }

    /** The input's frames that are valid and whole, up to the first that is not. */
    private static byte[] wholeFrames(byte[] input) {
        ByteBuffer in = ByteBuffer.wrap(input);
        int end = 0;
        while (in.remaining() >= 4) {
            int size = in.getInt(end);
            if (size < 0 || size > MAX_FRAME_SIZE || in.remaining() - 4 < size) {
                break;
            }
            end += 4 + size;
            in.position(end);
        }
        return Arrays.copyOf(input, end);
    }

    private static List<byte[]> seeds() {
        return List.of(
                frames(new byte[] {1, 2, 3}, new byte[0], new byte[] {4}),
                frames(new byte[200], new byte[] {9, 9}, new byte[MAX_FRAME_SIZE]),
                frames(new byte[] {7}, new byte[] {7}, new byte[] {7}, new byte[] {7}, new byte[] {7}));
    }

    private static byte[] frames(byte[]... bodies) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] body : bodies) {
            out.writeBytes(ByteBuffer.allocate(4).putInt(body.length).array());
            out.writeBytes(body);
        }
        return out.toByteArray();
    }

    /** Keeps the bytes of every frame lent, checks each is as long as its size says, and pauses the decoder after every {@code pauseEvery}-th. */
    private static final class Lent extends ChannelInboundHandlerAdapter {

        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final FrameDecoder decoder;
        private final int pauseEvery;
        private int frames;

        Lent(FrameDecoder decoder, int pauseEvery) {
            this.decoder = decoder;
            this.pauseEvery = pauseEvery;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            FrameView frame = (FrameView) msg;
            assertEquals(
                    4 + frame.buffer().getInt(frame.index()), frame.length(), "a frame is as long as its size says");
            bytes.writeBytes(ByteBufUtil.getBytes(frame.buffer(), frame.index(), frame.length()));
            frames++;
            if (pauseEvery > 0 && frames % pauseEvery == 0) {
                decoder.pause();
            }
        }
    }
}
