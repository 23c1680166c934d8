package io.sluice.relay.connection;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;

/**
 * Cuts a byte stream of length-prefixed frames into whole frames and lends each to the next
 * handler as a {@link FrameView} of the bytes read, length prefix included: reading a frame or
 * forwarding it unchanged costs no allocation, and a frame that passes through goes out as the
 * very bytes that came in. The view is valid during the call only; a handler that keeps a frame
 * takes {@link FrameView#retainedSlice()}. What a frame's prefix must say is the protocol's
 * {@link FrameRule}, checked against a largest size that a {@link ProxiedConnection} may change
 * (a Pulsar broker tells its own in CONNECTED).
 *
 * <p>Owns what it has read: the bytes of frames not yet whole, and the read buffer while its
 * frames are lent. A frame that one read leaves unfinished is completed with only the bytes it
 * lacks from the next read, and the rest of that read is lent from the read buffer itself, so a
 * stream of frames that straddle reads costs a copy of one frame per read, not of every read.
 * A buffer that still holds part of a frame is appended to while nobody else holds a reference to
 * it, and copied into a new one otherwise, so bytes lent or kept earlier never move.
 *
 * <p>Paused by its {@link ProxiedConnection} (for the reasons that stop decoding, and for good
 * when it closes), it lends no frame and keeps what arrives; resumed, it decodes what it kept from
 * a task of its own, then passes a read-complete on so that what the frames caused is flushed.
 *
 * <p>A rule that finds a frame malformed raises a {@link MalformedFrameException}, and everything
 * buffered is dropped: nothing later in the stream can be trusted. The connection closes.
 *
 * <p>Confined to the channel's event loop.
 */
public final class FrameDecoder extends ChannelInboundHandlerAdapter {

    private final FrameRule rule;
    private final FrameView frame = new FrameView();
    private final Runnable wake = this::decodeKept;
    private ChannelHandlerContext ctx;
    /** The bytes not yet lent, starting at a frame's first byte; null when there are none. */
    private ByteBuf buffered;
    /**
     * Reads that came after {@link #buffered} ends in a partial frame; the decoder takes from them
     * only what that frame lacks, then lends the rest in place. Null when there are none.
     */
    private ByteBuf following;

    private int maxFrameSize;
    private boolean paused;
    private boolean decoding;

    /** @param maxFrameSize the largest size a frame's prefix may declare, until the connection changes it */
    public FrameDecoder(FrameRule rule, int maxFrameSize) {
        this.rule = rule;
        maxFrameSize(maxFrameSize);
    }

    /** The largest size a frame's prefix may declare now. */
    public int maxFrameSize() {
        return maxFrameSize;
    }

    void maxFrameSize(int maxFrameSize) {
        if (maxFrameSize <= 0 || maxFrameSize > Integer.MAX_VALUE - 4) {
            throw new IllegalArgumentException(
                    "maxFrameSize must be positive and leave room for the length prefix: " + maxFrameSize);
        }
        this.maxFrameSize = maxFrameSize;
    }

    /**
     * Stops lending frames; bytes received stay buffered. With reading paused as well, this bounds
     * what a flooding client can push past the proxy's limits to what one read brings.
     */
    void pause() {
        paused = true;
    }

    /** Lends frames again, first those buffered while paused, from a task of their own. */
    void resume() {
        if (!paused) {
            return;
        }
        paused = false;
        if ((buffered != null || following != null) && ctx != null) {
            ctx.executor().execute(wake);
        }
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf read)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (buffered == null) {
            buffered = read;
        } else if (following == null) {
            following = read;
        } else {
            // Reads that came while paused: ours alone, so they can be appended to in place.
            try {
                following = append(ctx.alloc(), following, read, read.readableBytes());
            } finally {
                read.release();
            }
        }
        decode();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        releaseAll();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseAll();
    }

    private void decode() {
        if (decoding) {
            // A handler fired bytes at us while taking a frame: the loop below comes to them.
            return;
        }
        decoding = true;
        try {
            while (!paused && buffered != null) {
                int length = frameLength(buffered);
                if (length >= 0 && buffered.readableBytes() >= length) {
                    int start = buffered.readerIndex();
                    buffered.skipBytes(length);
                    ctx.fireChannelRead(frame.lend(buffered, start, length));
                    if (buffered != null && !buffered.isReadable()) {
                        nextRead();
                    }
                } else if (following != null) {
                    completeFromFollowing(length);
                } else {
                    break;
                }
            }
        } finally {
            decoding = false;
            if (buffered != null && !buffered.isReadable()) {
                nextRead();
            }
        }
    }

    /**
     * Moves into {@link #buffered}, whose frame is not whole, what that frame lacks from
     * {@link #following}: all of it while the frame's length is not known yet (-1).
     */
    private void completeFromFollowing(int length) {
        int lacking = length < 0 ? following.readableBytes() : length - buffered.readableBytes();
        int take = Math.min(lacking, following.readableBytes());
        buffered = append(ctx.alloc(), buffered, following, take);
        if (!following.isReadable()) {
            following.release();
            following = null;
        }
    }

    /** Lends what was buffered while paused; the read-complete after it flushes what it caused. */
    private void decodeKept() {
        if (paused || ctx.isRemoved()) {
            return;
        }
        try {
            decode();
        } catch (MalformedFrameException e) {
            ctx.fireExceptionCaught(e);
        } finally {
            ctx.fireChannelReadComplete();
        }
    }

    private int frameLength(ByteBuf in) {
        try {
            return rule.frameLength(in, maxFrameSize);
        } catch (MalformedFrameException e) {
            releaseAll();
            throw e;
        }
    }

    /**
     * Moves {@code count} bytes from {@code from} to the end of {@code to}, returning the buffer that
     * now holds {@code to}'s bytes and them: {@code to} itself, or a new buffer (and {@code to}
     * released) when others hold frames in {@code to} or it has no room. Takes ownership of
     * {@code to}; {@code from} stays the caller's.
     */
    private static ByteBuf append(ByteBufAllocator alloc, ByteBuf to, ByteBuf from, int count) {
        boolean alone = to.refCnt() == 1;
        ByteBuf target = to;
        if (to.isReadOnly() || count > to.maxWritableBytes() || (!alone && count > to.maxFastWritableBytes())) {
            // Others hold frames in this buffer (lent, held): leave them be, go on in a new one.
            target = alloc.buffer(to.readableBytes() + count);
            target.writeBytes(to);
            to.release();
        } else if (alone && count > to.maxFastWritableBytes()) {
            // Ours alone: make room by moving the partial frame to the front.
            to.discardReadBytes();
        }
        target.writeBytes(from, count);
        return target;
    }

    /** Every byte of {@link #buffered} is lent: goes on with the reads that followed it. */
    private void nextRead() {
        buffered.release();
        buffered = following;
        following = null;
    }

    private void releaseAll() {
        if (buffered != null) {
            buffered.release();
            buffered = null;
        }
        if (following != null) {
            following.release();
            following = null;
        }
    }
}
